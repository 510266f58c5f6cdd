/**
 * The sandbox fails closed. Journal code can run where no simulated process holds the turn — a
 * cleared async context, a callback Node calls on its own (an async hook, a message listener, a
 * finalizer, stack formatting), a getter, trap or conversion durasim's own code triggers on the
 * journal's arguments or thrown values — and each of those once reached the real disk. Each probe
 * below is one of those routes, run in the worker pool as `durasim check` runs a journal: its
 * attempt to write a real file is refused (an escape, named) or never leaves the journal's turn.
 * None writes the file. Modules that reach outside with no guard before (node:module's register,
 * node:wasi, http's own _http_client) are refused by name.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from './workerPool.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-fail-closed-'));
const realDir = mkdtempSync(join(tmpdir(), 'durasim-fail-closed-target-'));

interface Probe {
  name: string;
  /** Module-level code (imports are in scope: fs, asyncHooks, workerThreads, nodeModule, wasi, httpClient). */
  setup?: string;
  /** The body of run(); TARGET is a real file it must never write; its value is written to probe.txt. */
  code: string;
  /** The escape it is refused with, if it is refused; else none. */
  refused?: { api: string; who?: 'no process' };
  /** What the probe wrote, when it ran to the end. */
  wrote?: RegExp;
}

const PROBES: Probe[] = [
  {
    name: 'a cleared async context (executionAsyncResource)',
    code: `await Promise.resolve();
      const resource = asyncHooks.executionAsyncResource();
      for (const symbol of Object.getOwnPropertySymbols(resource)) if (symbol.description === 'kResourceStore') resource[symbol] = undefined;
      fs.writeFileSync(TARGET, 'escaped');`,
    // Node 24's AsyncLocalStorage keeps its store in an async context frame, not on the resource: clearing
    // kResourceStore leaves the journal in its turn, and the write is served on the simulated disk.
    ...(Number(process.versions.node.split('.')[0]) < 24 ? { refused: { api: 'fs.writeFileSync', who: 'no process' } } : {}),
  },
  {
    name: 'an async hook, called for every resource of the thread',
    code: `asyncHooks.createHook({ before() { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} } }).enable();
      return 'hooked';`,
    refused: { api: 'async_hooks.createHook' },
  },
  {
    name: "a listener on the pool's port (worker_threads.parentPort)",
    code: `const port = workerThreads.parentPort;
      if (port) port.on('message', () => { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} });
      return String(port) + ' ' + workerThreads.isMainThread;`,
    wrote: /^null true$/,
  },
  {
    name: 'a FinalizationRegistry callback',
    setup: `const registry = new FinalizationRegistry(() => { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} });
      // Kept alive past the run (durasim forgets only the enumerable globals a journal adds): its callback has targets to finalize.
      (globalThis.durasimProbeRegistries ??= []).push(registry);
      Object.defineProperty(globalThis, 'durasimProbeRegistries', { enumerable: false });`,
    code: `for (let i = 0; i < 2000; i++) registry.register({ i }, i);
      // Enough kept alive for a while that the collector runs in full (a young collection finalizes nothing).
      for (let round = 0; round < 8; round++) { let junk = []; for (let i = 0; i < 20000; i++) junk.push(new Array(100).fill(i)); await null; junk = null; }
      await new Promise((resolve) => setTimeout(resolve, 10));
      return 'registered';`,
    wrote: /^registered$/,
  },
  {
    name: 'Error.prepareStackTrace, called as durasim formats a thrown error',
    code: `Error.prepareStackTrace = (error, frames) => { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} return String(error); };
      throw new Error('thrown with a stack formatter set');`,
  },
  {
    name: "a getter on a served call's options",
    code: `fs.writeFileSync('out.txt', 'x', { get encoding() { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} return 'utf8'; } });
      return fs.readFileSync('out.txt', 'utf8');`,
    wrote: /^x$/,
  },
  {
    name: "a Proxy as a served call's options",
    code: `fs.writeFileSync('out.txt', 'y', new Proxy({ flag: 'w' }, { get(target, key) { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} return target[key]; } }));
      return fs.readFileSync('out.txt', 'utf8');`,
    wrote: /^y$/,
  },
  {
    name: "a timer delay's valueOf",
    code: `await new Promise((resolve) => setTimeout(resolve, { valueOf() { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} return 5; } }));
      return 'waited';`,
    wrote: /^waited$/,
  },
  {
    name: "a thrown error's message getter",
    code: `const error = new Error('plain');
      Object.defineProperty(error, 'message', { get() { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} return 'read'; } });
      throw error;`,
  },
  {
    name: 'an uncaught-exception capture callback',
    code: `process.setUncaughtExceptionCaptureCallback(() => { try { fs.writeFileSync(TARGET, 'escaped'); } catch {} });
      return 'set';`,
    refused: { api: 'process.setUncaughtExceptionCaptureCallback' },
  },
  {
    name: 'node:module register (module hooks run on a thread of their own)',
    code: `nodeModule.register('data:text/javascript,export async function resolve(s, c, next) { return next(s, c); }');
      return 'registered';`,
    refused: { api: 'module.register' },
  },
  {
    name: 'node:wasi with a real pre-opened folder',
    code: `new wasi.WASI({ version: 'preview1', preopens: { '/sandbox': REAL_DIR } });
      return 'made';`,
    refused: { api: 'wasi.WASI' },
  },
  {
    name: "http's client under its own module name (_http_client)",
    code: `new httpClient.ClientRequest('http://127.0.0.1:9/');
      return 'sent';`,
    refused: { api: '_http_client.ClientRequest' },
  },
];

function probeModule(probe: Probe, index: number): string {
  return `import * as fs from 'node:fs';
import * as asyncHooks from 'node:async_hooks';
import * as workerThreads from 'node:worker_threads';
import * as nodeModule from 'node:module';
import * as wasi from 'node:wasi';
import * as httpClient from '_http_client';
const TARGET = ${JSON.stringify(join(realDir, `probe-${index}`))};
const REAL_DIR = ${JSON.stringify(realDir)};
${probe.setup ?? ''}
export default {
  name: 'fail-closed-${index}',
  async run(env) {
    const value = await (async () => {
      ${probe.code}
    })();
    await env.fs.writeFile('probe.txt', String(value));
  },
  inspect(disk) {
    const text = disk.readFile('probe.txt');
    return text === undefined ? {} : { probe: { kind: 'operation', history: [], digest: text } };
  },
};
`;
}

const scenario = { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [] } };
let pool: WorkerPool;

beforeAll(() => {
  pool = new WorkerPool({ workers: 1 });
});
afterAll(() => pool.close());

describe('journal code with no turn', () => {
  test.each(PROBES.map((probe, index) => [probe.name, probe, index] as const))('%s: never reaches the real disk', async (_name, probe, index) => {
    const file = join(dir, `probe-${index}.ts`);
    writeFileSync(file, probeModule(probe, index));
    const loaded = await pool.load(journalRefOf(file));
    expect(loaded.loadEscapes).toEqual([]);
    // Twice: what a first run left behind (a listener, a hook, a finalizer) runs during or after it.
    for (let run = 0; run < 2; run++) {
      const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full' });
      if (outcome.kind !== 'simulated' || !outcome.result) throw new Error(`the probe did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
      const escapes = outcome.result.escapes;
      if (probe.refused) {
        expect(escapes.map((e) => e.api)).toContain(probe.refused.api);
        const escape = escapes.find((e) => e.api === probe.refused?.api);
        expect(escape?.pid === -2 ? 'no process' : undefined).toBe(probe.refused.who);
      } else {
        expect(escapes).toEqual([]);
      }
      const written = (outcome.result.final.visible.probe as { digest?: string } | undefined)?.digest;
      if (probe.wrote) expect(written).toMatch(probe.wrote);
      expect(existsSync(join(realDir, `probe-${index}`))).toBe(false);
    }
  });
});
