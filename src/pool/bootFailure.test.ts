/**
 * A pool worker that cannot boot ends the command (exit 5, OwnFailure), naming its entry file or
 * what it threw, and the fix: its entry file missing (an installed package without
 * dist/src/pool/poolBoot.mjs once hung `durasim check` until it was killed), a boot that throws,
 * one that ends before it is ready (process.exit(0), or nothing left to run). The pool once started
 * a new worker for each that died, forever, and the journal's load waited for one to answer.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { OwnFailure } from '../ownFailure.js';
import { WorkerPool } from './workerPool.js';

const dir = mkdtempSync(join(tmpdir(), 'durasim-boot-failure-'));
const pools: WorkerPool[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.close())));

const REINSTALL = 'Reinstall durasim (npm install durasim; in a clone of its repository, npm install and git checkout the file); if it fails again, report it with the command line you ran.';

/** A boot entry whose body is `code`, counting its starts in a file of its own. */
function bootFile(name: string, code: string): { boot: string; starts: () => number } {
  const boot = join(dir, `${name}.mjs`);
  const count = join(dir, `${name}.starts`);
  writeFileSync(count, '');
  writeFileSync(boot, `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(count)}, 'x');\n${code}\n`);
  return { boot, starts: () => readFileSync(count, 'utf8').length };
}

describe('a pool whose workers cannot boot', () => {
  const missing = join(dir, 'gone', 'poolBoot.mjs');
  const throws = bootFile('throws', "throw new Error('the graph is corrupt');");
  const exits = bootFile('exits', 'process.exit(0);');
  const idle = bootFile('idle', '// nothing runs: the thread ends without saying it is ready');
  test.each([
    ['its entry file missing', missing, `its entry file ${missing} is missing: durasim's package is incomplete`, undefined],
    ['a boot that throws', throws.boot, `its boot (${throws.boot}) threw Error: the graph is corrupt`, throws.starts],
    ['a boot that exits 0 before it is ready', exits.boot, `its boot (${exits.boot}) ended with exit code 0 before the worker was ready`, exits.starts],
    ['a boot that ends with nothing left to run', idle.boot, `its boot (${idle.boot}) ended with exit code 0 before the worker was ready`, idle.starts],
  ])('%s: the load rejects with exit 5 words, every run ends with them, and no worker is started again', async (_what, boot, reason, starts) => {
    const pool = new WorkerPool({ workers: 2, boot });
    pools.push(pool);
    // Sent before any worker could answer: it ends with the failure too, not never.
    const early = pool.run(0, { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [] } });
    const error = await pool.load(journalRefOf('reference')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OwnFailure);
    const message = `Failed to start a worker thread of durasim's pool: ${reason}. ${REINSTALL}`;
    expect((error as Error).message).toBe(message);
    expect(await early).toEqual({ kind: 'harness-error', message });
    // After the failure: every call ends at once, with the same words.
    expect(await pool.run(0, {})).toEqual({ kind: 'harness-error', message });
    expect(await pool.load(journalRefOf('reference')).catch((e: unknown) => (e as Error).message)).toBe(message);
    pool.grow(4);
    expect(await pool.threadCpuMs()).toEqual([undefined, undefined]);
    await pool.close();
    // The two workers asked for, and none in their place.
    if (starts) expect(starts()).toBeLessThanOrEqual(2);
  });
});

test("a boot that fails in durasim's own words (its module graph cannot load) is said in them", async () => {
  const graph = new URL('../bin/graph.mjs', import.meta.url).href;
  const { boot } = bootFile('graphFails', `const { ownFailure } = await import(${JSON.stringify(graph)});\nthrow ownFailure("load durasim's module graph", '/pkg/dist/graph.mjs threw SyntaxError: Unexpected end of input', 'Reinstall durasim');`);
  const pool = new WorkerPool({ workers: 1, boot });
  pools.push(pool);
  const error = await pool.load(journalRefOf('reference')).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OwnFailure);
  expect((error as Error).message).toBe("Failed to load durasim's module graph: /pkg/dist/graph.mjs threw SyntaxError: Unexpected end of input. Reinstall durasim.");
});

/**
 * A boot that never says it is ready and never ends — blocked on a lock nothing releases, or looping —
 * once hung the command forever (the known gap of the stops before this one). The pool bounds a
 * boot by the harness's own clock (bootTimeoutMs, default 120 s: a worker boots in well under a
 * second), then ends as a boot that fails.
 */
describe('a pool whose worker boot never ends', () => {
  const blocked = bootFile('blocked', 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);');
  const loops = bootFile('loops', 'for (;;) {}');
  test.each([
    ['blocked on a wait nothing ends', blocked],
    ['in an endless loop', loops],
  ])('%s: the load rejects with exit 5 words naming the bound, and no worker is started again', async (_what, { boot, starts }) => {
    const pool = new WorkerPool({ workers: 1, boot, bootTimeoutMs: 300 });
    pools.push(pool);
    const error = await pool.load(journalRefOf('reference')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OwnFailure);
    const message = `Failed to start a worker thread of durasim's pool: its boot (${boot}) did not say it was ready within 0.3 s (a worker boots in well under a second): it hangs. ${REINSTALL}`;
    expect((error as Error).message).toBe(message);
    expect(await pool.run(0, {})).toEqual({ kind: 'harness-error', message });
    await pool.close();
    expect(starts()).toBe(1);
  });
});

