/**
 * Warm workers (warmWorkers.ts): a closed pool's idle workers serve the next pool of the process
 * with the same settings, only where the process asked (this suite does: warmInTests.ts), only
 * healthy idle ones, never with what the last journal left where a restart's restore reaches, and
 * never keeping the process alive.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from './workerPool.js';
import { endWarmWorkers, idleWorkers, keepWarm, keepWorkersWarm, MAX_IDLE, takeWarm, workersKeptWarm } from './warmWorkers.js';
import { newHeartbeat } from './heartbeat.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-warm-'));
const simple = { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] } };
const reference = journalRefOf('reference');

afterEach(async () => {
  // Each test starts with no idle worker, asking for warm ones as the suite does.
  await endWarmWorkers();
  keepWorkersWarm();
});

async function referenceRun(pool: WorkerPool): Promise<string | undefined> {
  const loaded = await pool.load(reference);
  const outcome = await pool.run(loaded.journalId, simple, { detail: 'hash' });
  return outcome.kind === 'simulated' ? outcome.summary.traceHash : outcome.kind;
}

describe('a closed pool leaves its idle workers warm for the next one', () => {
  test('the next pool takes the same thread (its CPU goes on from where it was) instead of booting one; its runs are the same', async () => {
    expect(workersKeptWarm()).toBe(true);
    const first = new WorkerPool({ workers: 1 });
    const hash = await referenceRun(first);
    const [cpuBefore] = await first.threadCpuMs();
    await first.close();
    expect(idleWorkers()).toBe(1);
    const second = new WorkerPool({ workers: 1 });
    expect(second.warmTaken).toBe(1);
    expect(idleWorkers()).toBe(0);
    const [cpuAfter] = await second.threadCpuMs();
    if (cpuBefore !== undefined && cpuAfter !== undefined) expect(cpuAfter).toBeGreaterThanOrEqual(cpuBefore);
    expect(await referenceRun(second)).toBe(hash);
    await second.close();
  });

  test('a pool closed again, or asked for its threads\' CPU after it closed, never touches the worker it left to the next pool', async () => {
    const first = new WorkerPool({ workers: 1 });
    const hash = await referenceRun(first);
    await first.close();
    const second = new WorkerPool({ workers: 1 });
    expect(second.warmTaken).toBe(1);
    // The first pool closed again while the second runs a journal that holds its thread a while, on the first's old worker: the run ends as simulated.
    writeFileSync(join(dir, 'spins.mjs'), "export default { name: 'spins', async run(env) { let x = 0; for (let i = 0; i < 3e8; i++) x = (x * 31 + i) | 0; await env.fs.writeFile('x.txt', String(x)); }, inspect() { return {}; } };\n");
    const loaded = await second.load(journalRefOf(join(dir, 'spins.mjs')));
    const running = second.run(loaded.journalId, simple);
    await first.close();
    expect(await first.threadCpuMs()).toEqual([undefined]);
    expect((await running).kind).toBe('simulated');
    expect(await referenceRun(second)).toBe(hash);
    await second.close();
    expect(idleWorkers()).toBe(1);
  });

  test('what a journal left where a restart puts things back does not reach the next pool\'s journal in the same thread', async () => {
    const places: [string, string, string][] = [
      // [read, leave, what a new process reads]
      ['process.carried', "process.carried = 'left'", 'undefined'],
      ['globalThis.carried', "Object.defineProperty(globalThis, 'carried', { value: 'left' })", 'undefined'],
      ['JSON.carried', "JSON.carried = 'left'", 'undefined'],
      ['[].carried', "Array.prototype.carried = () => 'left'", 'undefined'],
      ['Error.stackTraceLimit', 'Error.stackTraceLimit = 1', '10'],
      ['process.exitCode', 'process.exitCode = 7', 'undefined'],
    ];
    const module = (name: string, leave: boolean) => `export default {
  name: '${name}',
  async run(env) {
    const seen = [${places.map(([read]) => `String(${read})`).join(', ')}].join(' ');
    ${leave ? places.map(([, left]) => `${left};`).join('\n    ') : ''}
    await env.fs.writeFile('seen.txt', seen);
  },
  inspect(disk) {
    const text = disk.readFile('seen.txt');
    return text === undefined ? {} : { seen: { kind: 'operation', history: [], digest: text } };
  },
};
`;
    writeFileSync(join(dir, 'leaves.mjs'), module('leaves', true));
    writeFileSync(join(dir, 'reads.mjs'), module('reads', false));
    const seen = async (pool: WorkerPool, file: string) => {
      const loaded = await pool.load(journalRefOf(join(dir, file)));
      const outcome = await pool.run(loaded.journalId, simple, { detail: 'full' });
      return outcome.kind === 'simulated' ? (outcome.result?.final.visible.seen as { digest?: string } | undefined)?.digest : outcome.kind;
    };
    const fresh = places.map(([, , value]) => value).join(' ');
    const first = new WorkerPool({ workers: 1 });
    expect(await seen(first, 'leaves.mjs')).toBe(fresh);
    await first.close();
    const second = new WorkerPool({ workers: 1 });
    expect(second.warmTaken).toBe(1);
    expect(await seen(second, 'reads.mjs')).toBe(fresh);
    await second.close();
  });
});

describe('a worker is kept warm only where it may be', () => {
  test('not where the process did not ask, nor for a pool that says warm: false', async () => {
    await endWarmWorkers();
    const unasked = new WorkerPool({ workers: 1 });
    await referenceRun(unasked);
    await unasked.close();
    expect(idleWorkers()).toBe(0);
    keepWorkersWarm();
    const cold = new WorkerPool({ workers: 1, warm: false });
    await referenceRun(cold);
    await cold.close();
    expect(idleWorkers()).toBe(0);
    const kept = new WorkerPool({ workers: 1 });
    await referenceRun(kept);
    await kept.close();
    expect(idleWorkers()).toBe(1);
    const coldAgain = new WorkerPool({ workers: 1, warm: false });
    expect(coldAgain.warmTaken).toBe(0);
    expect(idleWorkers()).toBe(1);
    await coldAgain.close();
  });

  test('not for a pool with other settings: another memory limit, another process.env (a worker keeps the one it started with), a worker\'s stderr shown', async () => {
    const kept = new WorkerPool({ workers: 1 });
    await referenceRun(kept);
    await kept.close();
    expect(idleWorkers()).toBe(1);
    const otherLimit = new WorkerPool({ workers: 1, maxHeapMb: 256 });
    expect(otherLimit.warmTaken).toBe(0);
    await otherLimit.close();
    process.env.DURASIM_WARM_TEST = 'another environment';
    try {
      const otherEnv = new WorkerPool({ workers: 1 });
      expect(otherEnv.warmTaken).toBe(0);
      await otherEnv.close();
    } finally {
      delete process.env.DURASIM_WARM_TEST;
    }
    const same = new WorkerPool({ workers: 1 });
    expect(same.warmTaken).toBe(1);
    await same.close();
    // A worker's stderr piped to the process's is never kept: keeping it ends its stream, and the pipe would end the process's stderr.
    process.env.DURASIM_DEBUG_WORKERS = '1';
    try {
      const shown = new WorkerPool({ workers: 1 });
      expect(shown.warmTaken).toBe(0);
      await referenceRun(shown);
      await shown.close();
      expect(idleWorkers()).toBe(1);
    } finally {
      delete process.env.DURASIM_DEBUG_WORKERS;
    }
  });

  test('not a worker still running a journal when its pool closes: it is ended', async () => {
    const busy = new WorkerPool({ workers: 1, hangTimeoutMs: 60_000 });
    const loaded = await busy.load(journalRefOf(fileURLToPath(new URL('./fixtures/blocksSync.ts', import.meta.url))));
    const outcome = busy.run(loaded.journalId, simple);
    // Sent, so the worker holds it (the loop starts at its first step).
    await new Promise((done) => setTimeout(done, 200));
    await busy.close();
    expect(idleWorkers()).toBe(0);
    expect((await outcome).kind).toBe('harness-error');
  });

  test('a worker left warm again and again holds what it held the first time: its streams are ended once, with one listener', async () => {
    // A stand-in worker whose stdio is not flowing: its end is not emitted, so each keep saw it open (under load, a suite warned of 11 listeners).
    const stream = (): Readable => new Readable({ read() {} });
    const worker = Object.assign(new EventEmitter(), { stdout: stream(), stderr: stream(), unref() {}, ref() {}, terminate: async () => 0 });
    const kept = { worker: worker as unknown as Worker, heartbeat: newHeartbeat(), runs: 0 };
    for (let i = 0; i < 12; i++) {
      keepWarm('stand-in', kept);
      expect(takeWarm('stand-in')?.worker).toBe(worker);
    }
    expect([worker.stdout.listenerCount('error'), worker.stderr.listenerCount('error')]).toEqual([1, 1]);
  });

  test(`at most ${MAX_IDLE} idle workers, the longest idle ended first`, async () => {
    const pools = Array.from({ length: MAX_IDLE + 1 }, () => new WorkerPool({ workers: 1 }));
    for (const pool of pools) await referenceRun(pool);
    for (const pool of pools) await pool.close();
    expect(idleWorkers()).toBe(MAX_IDLE);
  });
});

describe('an idle warm worker never keeps the process alive', () => {
  test('a program that asked for warm workers ends by itself once its last pool is closed', () => {
    const program = join(dir, 'program.mts');
    writeFileSync(program, `
      import { keepWorkersWarm, idleWorkers } from ${JSON.stringify(join(ROOT, 'src/pool/warmWorkers.ts'))};
      import { WorkerPool } from ${JSON.stringify(join(ROOT, 'src/pool/workerPool.ts'))};
      import { journalRefOf } from ${JSON.stringify(join(ROOT, 'src/isolation/journalRef.ts'))};
      keepWorkersWarm();
      const pool = new WorkerPool({ workers: 1 });
      const loaded = await pool.load(journalRefOf('reference'));
      const outcome = await pool.run(loaded.journalId, { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] } });
      await pool.close();
      console.log(outcome.kind, 'idle', idleWorkers());
    `);
    // The bound is a hang guard, not a speed gate: a process held by its idle worker never ends.
    const child = spawnSync(process.execPath, ['--import', 'tsx', program], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(child.signal, child.stderr).toBeNull();
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout.trim()).toBe('simulated idle 1');
  });
});
