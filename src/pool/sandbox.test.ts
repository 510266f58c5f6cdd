/**
 * The sandbox, probed as a journal would reach around env: one probe journal per API, run in the
 * worker pool exactly as `durasim check` runs a journal (bundled, fresh per incarnation, in a
 * guarded worker thread). Each probe is either served by the simulated world (its virtual clock,
 * the scenario's draws, its disk and service — and then deterministic) or caught (the escape
 * recorded, with the message naming what to call instead). None passes silently, and none touches
 * the real disk or network.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from './workerPool.js';

type Probe = { name: string; code: string } & ({ api: string } | { served: (value: string) => boolean });

/** Where virtual time starts (simulator/world/clock.ts): the probe reads the clock at virtual 0 ms. */
const EPOCH = 1_767_225_600_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const dir = mkdtempSync(join(tmpdir(), 'durasim-probes-'));
const realDir = mkdtempSync(join(tmpdir(), 'durasim-probe-target-'));
const target = (name: string): string => JSON.stringify(join(realDir, name));
let server: Server;
let port = 0;
let connections = 0;

const PROBES: Probe[] = [
  { name: 'Date.now is the virtual clock', code: 'Date.now()', served: (v) => v === String(EPOCH) },
  { name: 'new Date() is the virtual clock', code: 'new Date()', served: (v) => v === String(new Date(EPOCH)) },
  { name: 'Date() is the virtual clock', code: 'Date()', served: (v) => v === String(new Date(EPOCH)) },
  { name: 'new Date(0) is deterministic', code: 'new Date(0).toISOString()', served: (v) => v === '1970-01-01T00:00:00.000Z' },
  { name: 'performance.now counts from the incarnation start', code: 'performance.now()', served: (v) => v === '0' },
  { name: 'performance.timeOrigin is the incarnation start', code: 'performance.timeOrigin', served: (v) => v === String(EPOCH) },
  { name: 'performance.mark is on the virtual clock', code: "performance.mark('x').startTime", served: (v) => v === '0' },
  { name: 'process.hrtime counts from the incarnation start', code: 'process.hrtime()', served: (v) => v === '0,0' },
  { name: 'process.hrtime.bigint counts from the incarnation start', code: 'process.hrtime.bigint()', served: (v) => v === '0' },
  { name: 'process.uptime counts from the incarnation start', code: 'process.uptime()', served: (v) => v === '0' },
  { name: 'performance.nodeTiming', code: 'performance.nodeTiming.duration', api: 'performance.nodeTiming' },
  { name: 'Intl date formatting of now is the virtual clock', code: "new Intl.DateTimeFormat('en-US').format()", served: (v) => v === new Intl.DateTimeFormat('en-US').format(EPOCH) },
  { name: 'Math.random is the scenario draw (0 past its end)', code: 'Math.random()', served: (v) => v === '0' },
  { name: 'global crypto.randomUUID is drawn from the scenario', code: 'crypto.randomUUID()', served: (v) => UUID.test(v) },
  { name: 'global crypto.getRandomValues is drawn from the scenario', code: 'crypto.getRandomValues(new Uint8Array(4))', served: (v) => /^\d+,\d+,\d+,\d+$/.test(v) },
  { name: 'crypto.subtle.generateKey', code: "crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['sign'])", api: 'crypto.subtle.generateKey' },
  { name: 'node:crypto randomUUID is drawn from the scenario', code: 'nodeCrypto.randomUUID()', served: (v) => UUID.test(v) },
  { name: 'node:crypto randomBytes is drawn from the scenario', code: "nodeCrypto.randomBytes(8).toString('hex')", served: (v) => /^[0-9a-f]{16}$/.test(v) },
  { name: 'node:crypto randomInt is the scenario draw', code: 'nodeCrypto.randomInt(10)', served: (v) => v === '0' },
  { name: 'node:crypto createHash is deterministic', code: "nodeCrypto.createHash('sha256').update('a').digest('hex').slice(0, 8)", served: (v) => v === 'ca978112' },
  { name: 'setTimeout is a virtual timer', code: 'setTimeout(() => {}, 1)', served: (v) => /^\d+$/.test(v) },
  { name: 'setInterval is a virtual timer', code: 'setInterval(() => {}, 1)', served: (v) => /^\d+$/.test(v) },
  { name: 'setImmediate is a virtual timer', code: 'setImmediate(() => {})', served: (v) => /^\d+$/.test(v) },
  { name: 'AbortSignal.timeout aborts on the virtual clock', code: 'AbortSignal.timeout(10)', served: (v) => v === '[object AbortSignal]' },
  { name: 'node:timers setTimeout is a virtual timer', code: 'timers.setTimeout(() => {}, 1)', served: (v) => /^\d+$/.test(v) },
  { name: 'timers/promises setTimeout settles on the virtual clock', code: "timersPromises.setTimeout(1, 'woke')", served: (v) => v === 'woke' },
  { name: 'timers/promises setInterval', code: 'timersPromises.setInterval(1)', api: 'timers.promises.setInterval' },
  { name: 'global fetch reaches only the fake service', code: "fetch('http://127.0.0.1:' + PORT + '/')", served: (v) => v.startsWith('threw fetch failed: http://127.0.0.1:') },
  { name: 'http.request reaches only the fake service', code: "new Promise((resolve) => http.request('http://127.0.0.1:' + PORT + '/').on('error', (e) => resolve(e.code)).end())", served: (v) => v === 'ENOTFOUND' },
  { name: 'https.get reaches only the fake service', code: "new Promise((resolve) => https.get('https://127.0.0.1:' + PORT + '/').on('error', (e) => resolve(e.code)))", served: (v) => v === 'ENOTFOUND' },
  { name: 'new http.Agent', code: 'new http.Agent()', api: 'http.Agent' },
  { name: 'net.connect', code: 'net.connect(PORT, "127.0.0.1")', api: 'net.connect' },
  { name: 'new net.Socket().connect', code: 'new net.Socket().connect(PORT, "127.0.0.1")', api: 'net.Socket' },
  { name: 'dns.lookup', code: "dns.lookup('localhost', () => {})", api: 'dns.lookup' },
  { name: 'dns.promises.resolve', code: "dns.promises.resolve('localhost')", api: 'dns.promises.resolve' },
  { name: 'tls.connect', code: 'tls.connect(PORT, "127.0.0.1")', api: 'tls.connect' },
  { name: 'dgram.createSocket', code: "dgram.createSocket('udp4')", api: 'dgram.createSocket' },
  { name: 'child_process.execSync', code: `childProcess.execSync('touch ' + ${target('exec')})`, api: 'child_process.execSync' },
  { name: 'child_process.spawn', code: "childProcess.spawn('true')", api: 'child_process.spawn' },
  { name: 'new worker_threads.Worker', code: "new workerThreads.Worker('0', { eval: true })", api: 'worker_threads.Worker' },
  { name: 'fs.writeFileSync writes the virtual disk', code: `fs.writeFileSync(${target('sync')}, 'x')`, served: (v) => v.startsWith('threw ENOENT: no such file or directory') },
  { name: 'fs.opendirSync lists the virtual disk', code: 'fs.opendirSync("/").readSync().name', served: (v) => v === 'work' },
  { name: 'fs.promises.opendir lists the virtual disk', code: '(async () => { const names = []; for await (const entry of await fs.promises.opendir("/work")) names.push(entry.name); return names.join(",") || "empty"; })()', served: (v) => v === 'empty' },
  { name: 'node:fs/promises writeFile writes the virtual disk', code: `fsPromises.writeFile(${target('promises')}, 'x')`, served: (v) => v.startsWith('threw ENOENT: no such file or directory') },
  { name: 'fs.rmdirSync acts on the virtual disk', code: `fs.rmdirSync(${target('none')})`, served: (v) => v.startsWith('threw ENOENT: no such file or directory') },
  { name: 'fs.symlinkSync', code: `fs.symlinkSync('/', ${target('link')})`, api: 'fs.symlinkSync' },
  { name: 'fs.createWriteStream writes the virtual disk', code: `new Promise((resolve) => fs.createWriteStream(${target('stream')}).on('error', (error) => resolve('error ' + error.code)).on('open', () => resolve('opened')))`, served: (v) => v === 'error ENOENT' },
  { name: 'fs.createWriteStream in the work folder: each chunk a step', code: "new Promise((resolve, reject) => { const s = fs.createWriteStream('streamed.txt'); s.on('error', reject); s.write('a'); s.end('b', () => resolve(fs.readFileSync('streamed.txt', 'utf8'))); })", served: (v) => v === 'ab' },
  { name: 'fs.realpath.native answers on the virtual disk', code: 'new Promise((resolve) => fs.realpath.native("/work", (error, path) => resolve(error ? error.code : path)))', served: (v) => v === '/work' },
  { name: 'fs.chownSync acts on the virtual disk', code: `fs.chownSync(${target('owned')}, 0, 0)`, served: (v) => v.startsWith('threw ENOENT') },
  { name: 'fs.watch', code: 'fs.watch("/work")', api: 'fs.watch' },
  { name: 'an fs function captured at module load is served too', code: `captured(${target('captured')}, 'x')`, served: (v) => v.startsWith('threw ENOENT: no such file or directory') },
  { name: 'os.freemem answers for the simulated machine', code: 'os.freemem()', served: (v) => v === String(4 * 2 ** 30) },
  { name: 'os.hostname answers for the simulated machine', code: 'os.hostname()', served: (v) => v === 'durasim-host' },
  { name: 'os.setPriority', code: 'os.setPriority(0)', api: 'os.setPriority' },
  { name: 'process.memoryUsage', code: 'process.memoryUsage()', api: 'process.memoryUsage' },
  { name: 'process.cpuUsage is none: virtual time costs nothing', code: 'JSON.stringify(process.cpuUsage())', served: (v) => v === '{"user":0,"system":0}' },
  { name: 'process.kill', code: 'process.kill(process.pid, 0)', api: 'process.kill' },
  { name: 'process.reallyExit', code: 'process.reallyExit(0)', api: 'process.reallyExit' },
  { name: 'v8.getHeapStatistics', code: 'v8.getHeapStatistics()', api: 'v8.getHeapStatistics' },
  { name: 'vm.runInNewContext (a context with the real clock)', code: "vm.runInNewContext('Date.now()')", api: 'vm.runInNewContext' },
  { name: 'process.env is the scenario environment', code: 'JSON.stringify([process.env.HOME, process.env.DURASIM_PROBE, Object.keys(process.env)])', served: (v) => v === '[null,"set by the scenario",["DURASIM_PROBE"]]' },
  { name: 'process.pid is the simulated pid', code: 'process.pid', served: (v) => v === '1000' },
  { name: 'process.cwd() is the work dir', code: 'process.cwd()', served: (v) => v === '/work' },
  { name: 'Buffer.allocUnsafe is zero-filled', code: "Buffer.allocUnsafe(64).toString('hex')", served: (v) => v === '0'.repeat(128) },
  // process.stdout is the simulated process's own (guardProcess.ts serveStream): the worker's stdio, and the port it writes through, are out of reach.
  { name: "process.stdout has no port of the worker's stdio behind it", code: "String(Object.getOwnPropertySymbols(process.stdout).some((s) => s.description === 'kPort'))", served: (v) => v === 'false' },
  { name: 'process.stdout.write is the process\'s output', code: "String(process.stdout.write('to the trace\\n'))", served: (v) => v === 'true' },
  // Settings Node keeps for the whole thread, where no restart would undo them (found by blind attacks).
  { name: 'stream.setDefaultHighWaterMark', code: "process.getBuiltinModule('node:stream').setDefaultHighWaterMark(false, 1024)", api: 'stream.setDefaultHighWaterMark' },
  { name: 'process.report.filename set', code: "process.report.filename = 'kept.json'", api: 'process.report.filename' },
  { name: "v8.promiseHooks.onInit (a hook for the thread's life)", code: "process.getBuiltinModule('node:v8').promiseHooks.onInit(() => {})", api: 'v8.promiseHooks.onInit' },
  { name: 'worker_threads.receiveMessageOnPort', code: 'workerThreads.receiveMessageOnPort(new MessageChannel().port1)', api: 'worker_threads.receiveMessageOnPort' },
  { name: 'worker_threads.postMessageToThread', code: "workerThreads.postMessageToThread(0, 'forged')", api: 'worker_threads.postMessageToThread' },
  { name: "process.emit('message') (a real process's IPC channel)", code: "process.emit('message', { type: 'go' })", api: 'process.emit' },
  { name: 'node:wasi (its WASI hands wasm the real file descriptors)', code: "new (process.getBuiltinModule('node:wasi').WASI)({ version: 'preview1' })", api: 'wasi.WASI' },
  // Node 22.5 and later: node:sqlite is served (issue 53) on the simulated disk, where a real folder does not exist: SQLite's
  // own answer for a file it cannot open, as Node gives it, and the real folder untouched (below). Node 20 has no node:sqlite ('none').
  { name: 'node:sqlite is served on the simulated disk (a real folder\'s database file cannot be opened there)', code: `(() => { let m; try { m = process.getBuiltinModule('node:sqlite'); } catch { return 'none'; } return m === undefined ? 'none' : new m.DatabaseSync(${target('probe.sqlite')}); })()`, served: (v: string) => v === (process.getBuiltinModule?.('node:sqlite') === undefined ? 'none' : 'threw unable to open database file') },
  { name: 'process.abort', code: 'process.abort()', api: 'process.abort' },
  { name: 'process.kill of its own pid', code: "process.kill(process.pid, 'SIGKILL')", api: 'process.kill' },
  { name: 'process.setUncaughtExceptionCaptureCallback', code: 'process.setUncaughtExceptionCaptureCallback(() => {})', api: 'process.setUncaughtExceptionCaptureCallback' },
  { name: 'process.setSourceMapsEnabled', code: 'process.setSourceMapsEnabled(true)', api: 'process.setSourceMapsEnabled' },
  { name: 'process.loadEnvFile (a real file into the real environment)', code: "process.loadEnvFile('.env')", api: 'process.loadEnvFile' },
  { name: "process._getActiveHandles (durasim's own)", code: 'process._getActiveHandles()', api: 'process._getActiveHandles' },
  { name: 'new of a subclass of Date is the virtual clock', code: 'new (class extends Date {})().getTime()', served: (v) => v === String(EPOCH) },
  { name: 'Reflect.construct(Date, [], X) is the virtual clock', code: 'Date.prototype.getTime.call(Reflect.construct(Date, [], Object))', served: (v) => v === String(EPOCH) },
  { name: 'new Date(undefined) is an invalid date, as in Node', code: 'String(new Date(undefined))', served: (v) => v === 'Invalid Date' },
  { name: "process.umask is the simulated process's, and one it sets is its own", code: '[process.umask(), process.umask(0o077), process.umask()].join()', served: (v) => v === '18,18,63' },
  { name: 'the user and groups are the simulated machine\'s', code: '[process.getuid(), process.geteuid(), process.getgid(), process.getegid(), process.getgroups().join(), os.userInfo().uid].join()', served: (v) => v === '1000,1000,1000,1000,1000,1000' },
  { name: "a file's owner is the simulated user", code: "(fs.writeFileSync('owned.txt', 'x'), [fs.statSync('owned.txt').uid, fs.statSync('owned.txt').gid].join())", served: (v) => v === '1000,1000' },
  { name: "process.argv, execPath and execArgv are the simulated process's", code: 'JSON.stringify([process.argv, process.execPath, process.execArgv])', served: (v) => v === '[["/usr/local/bin/node","/journal"],"/usr/local/bin/node",[]]' },
  { name: 'the process is its own main thread', code: 'JSON.stringify([workerThreads.isMainThread, workerThreads.threadId, workerThreads.parentPort, workerThreads.workerData])', served: (v) => v === '[true,0,null,null]' },
  { name: "the journal's files are under /journal", code: 'JSON.stringify([__filename, __dirname, import.meta.url, import.meta.filename])', served: (v) => /^\["\/journal\/probe-\d+\.ts","\/journal","file:\/\/\/journal\/probe-\d+\.ts","\/journal\/probe-\d+\.ts"\]$/.test(v) },
  { name: "a stack holds the journal's frames and Node's, none of durasim's", code: "new Error('here').stack", served: (v) => v.startsWith('Error: here\n    at ') && v.split('\n').slice(1).every((line) => /\((\/journal\/|node:)|at (async )?\/journal\/|at new Promise \(<anonymous>\)/.test(line)) },
];

function probeModule(probe: Probe, index: number): string {
  return `import * as fs from 'node:fs';
import * as fsPromises from 'node:fs/promises';
import * as nodeCrypto from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import * as dns from 'node:dns';
import * as tls from 'node:tls';
import * as dgram from 'node:dgram';
import * as childProcess from 'node:child_process';
import * as workerThreads from 'node:worker_threads';
import * as os from 'node:os';
import * as timers from 'node:timers';
import * as timersPromises from 'node:timers/promises';
import * as vm from 'node:vm';
import * as v8 from 'node:v8';
const captured = fs.writeFileSync;
const PORT = ${port};
export default {
  name: 'probe-${index}',
  async run(env) {
    await env.clock.now();
    let value;
    try {
      value = await (${probe.code});
    } catch (error) {
      value = 'threw ' + (error && error.message);
    }
    await env.fs.writeFile('probe.txt', String(value));
  },
  inspect(disk) {
    const text = disk.readFile('probe.txt');
    return text === undefined ? {} : { probe: { kind: 'operation', history: [], digest: text } };
  },
};
`;
}

const scenario = { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [] }, environment: { DURASIM_PROBE: 'set by the scenario' } };
let pool: WorkerPool;

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  pool = new WorkerPool({ workers: 2 });
});

afterAll(async () => {
  await pool.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the sandbox', () => {
  test(`has at least 40 probes (${PROBES.length})`, () => {
    expect(PROBES.length).toBeGreaterThanOrEqual(40);
  });

  test.each(PROBES.map((probe, index) => [probe.name, probe, index] as const))('%s', async (_name, probe, index) => {
    const file = join(dir, `probe-${index}.ts`);
    writeFileSync(file, probeModule(probe, index));
    const loaded = await pool.load(journalRefOf(file));
    expect(loaded.loadEscapes).toEqual([]);
    const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full', modules: 'fresh', then: 'same' });
    const first = outcome.kind === 'simulated' ? outcome : undefined;
    const second = first?.again;
    if (!first?.result || !second?.result) throw new Error(`the probe did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
    const written = (first.result.final.visible.probe as { digest?: string } | undefined)?.digest;
    if ('api' in probe) {
      expect(first.result.escapes.map((e) => e.api)).toEqual([probe.api]);
      expect(written).toMatch(/^threw Failed to run the journal under simulation: it called .+, which .+\. (Use|Call|Do|Derive|Await|Let|Run|Write|Read|Poll|Talk|Listen|Instantiate) /);
    } else {
      expect(first.result.escapes).toEqual([]);
      expect(probe.served(written ?? ''), `served ${written}`).toBe(true);
    }
    expect(second.result.traceHash).toBe(first.result.traceHash);
  });

  test('no probe touched the real disk or the network', () => {
    expect(readdirSync(realDir)).toEqual([]);
    expect(connections).toBe(0);
    expect(existsSync(join(realDir, 'captured'))).toBe(false);
  });
});
