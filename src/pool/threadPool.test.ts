/**
 * Work on Node's thread pool lands at a deterministic point: one command, one verdict. Each probe
 * races thread-pool work (zlib, a zlib stream, crypto's callbacks, an HMAC through crypto.subtle)
 * against a served timer and writes which came first. The world waits for the work before it moves
 * the clock (simulator/world/turns.ts), so the work always comes first, and the same scenario run
 * again gives the same trace. Before, the timer won whenever the thread pool was slower than one
 * turn of the event loop: exit 0 one time, exit 4 (nondeterminism) the next.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from './workerPool.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-thread-pool-'));

/** Thread-pool work, as an expression that settles when it is done. */
const WORK: [string, string][] = [
  ['zlib.gzip (promisified)', `promisify(zlib.gzip)(Buffer.alloc(400000, 'a'))`],
  ['zlib.deflate with a callback', `new Promise((resolve, reject) => zlib.deflate(Buffer.alloc(400000, 'b'), (error, out) => (error ? reject(error) : resolve(out))))`],
  ['a gzip stream', `pipeline(Readable.from([Buffer.alloc(200000, 'c'), Buffer.alloc(200000, 'd')]), zlib.createGzip(), new Writable({ write(chunk, encoding, done) { done(); } }))`],
  ['crypto.pbkdf2', `promisify(crypto.pbkdf2)('password', 'salt', 20000, 32, 'sha256')`],
  ['crypto.scrypt', `promisify(crypto.scrypt)('password', 'salt', 32)`],
  ['an HMAC through crypto.subtle', `globalThis.crypto.subtle.importKey('raw', new Uint8Array(32), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']).then((key) => globalThis.crypto.subtle.sign('HMAC', key, new Uint8Array(100000)))`],
];

function probeModule(work: string, index: number): string {
  return `import * as zlib from 'node:zlib';
import * as crypto from 'node:crypto';
import { promisify } from 'node:util';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
export default {
  name: 'thread-pool-${index}',
  async run(env) {
    const timer = new Promise((resolve) => setTimeout(() => resolve('timer'), 1));
    const work = (${work}).then(() => 'work');
    const first = await Promise.race([timer, work]);
    await work;
    await env.fs.writeFile('probe.txt', first);
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

describe('work on the thread pool', () => {
  test.each(WORK.map(([name, work], index) => [name, work, index] as const))('%s: done before the clock moves, the same trace every run', async (_name, work, index) => {
    const file = join(dir, `probe-${index}.ts`);
    writeFileSync(file, probeModule(work, index));
    const loaded = await pool.load(journalRefOf(file));
    expect(loaded.loadEscapes).toEqual([]);
    const hashes = new Set<string>();
    for (let run = 0; run < 4; run++) {
      const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full' });
      if (outcome.kind !== 'simulated' || !outcome.result) throw new Error(`the probe did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
      expect(outcome.result.escapes).toEqual([]);
      expect(outcome.result.outcome.kind).toBe('completed');
      expect((outcome.result.final.visible.probe as { digest?: string } | undefined)?.digest).toBe('work');
      hashes.add(outcome.result.traceHash);
    }
    expect(hashes.size).toBe(1);
  });
});

describe("the web streams' compression, which runs zlib on the thread pool unwaited", () => {
  test.each(['CompressionStream', 'DecompressionStream'])('%s is refused, naming zlib\'s streams', async (name) => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(file, `export default {
  name: '${name}',
  async run(env) {
    let value;
    try { value = String(new ${name}('gzip')); } catch (error) { value = 'threw ' + error.message; }
    await env.fs.writeFile('probe.txt', value);
  },
  inspect(disk) {
    const text = disk.readFile('probe.txt');
    return text === undefined ? {} : { probe: { kind: 'operation', history: [], digest: text } };
  },
};
`);
    const loaded = await pool.load(journalRefOf(file));
    const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full' });
    if (outcome.kind !== 'simulated' || !outcome.result) throw new Error(`the probe did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
    expect(outcome.result.escapes.map((e) => e.api)).toEqual([name]);
    expect((outcome.result.final.visible.probe as { digest?: string } | undefined)?.digest).toMatch(/^threw Failed to run the journal under simulation: it called \w+Stream, which finishes on Node's thread pool at a real time\. \w+ with zlib's streams/);
  });
});
