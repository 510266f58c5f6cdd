/**
 * Coverage-guided draws through the worker pool: the same seed gives the same runs, windows and
 * aims with one worker or two, and aiming reaches windows that drawing alone had not.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { bundledJournal } from '../src/isolation/journalRef.js';
import { WorkerPool } from '../src/pool/workerPool.js';
import { explore } from '../src/runner/explore.js';
import { hunt } from '../src/runner/hunt.js';

const one = new WorkerPool({ workers: 1 });
const two = new WorkerPool({ workers: 2 });
afterAll(async () => {
  await one.close();
  await two.close();
});

const exploreWith = async (pool: WorkerPool, guided: boolean, runs: number) => {
  const loaded = await pool.load(bundledJournal('reference')!);
  return explore({ pool, journalId: loaded.journalId, arbitrary: {}, seed: 5, runs, guided });
};

describe('coverage-guided draws', () => {
  test('one worker or two: the same windows, the same aimed runs, the same hits', async () => {
    const [a, b] = [await exploreWith(one, true, 300), await exploreWith(two, true, 300)];
    expect(a.failure).toBeUndefined();
    expect(a.runsExecuted).toBe(300);
    expect(b.coverage).toEqual(a.coverage);
    expect(a.coverage.aimedRuns).toBe(100); // the odd runs from 100 on
    expect(a.work).toEqual(b.work); // the same scenarios ran: the same steps and trace entries in all
    // Aiming reaches windows drawing alone does not, in the same budget; aimed runs mostly strike the window they aim at.
    const plain = await exploreWith(two, false, 300);
    expect(plain.coverage.aimedRuns).toBe(0);
    expect(a.coverage.aimedHits).toBeGreaterThan(a.coverage.aimedRuns * 0.6);
    expect(a.coverage.windows.length).toBeGreaterThan(plain.coverage.windows.length);
  });

  test('a bug an aimed run finds is shrunk like any other: its value shrinks as its parent does', async () => {
    const loaded = await two.load(bundledJournal('pause-in-memory')!);
    const hunted = await hunt({ pool: two, journalId: loaded.journalId, seed: 2, runs: 1000, guided: true });
    // Run 511: odd and past the first 100, so aimed (drawn as always, seed 2 finds the mutant at run 227).
    expect(hunted.finding?.origin).toEqual({ index: 511 });
    expect(hunted.finding?.shrink?.fromFaults).toBeGreaterThan(5);
    // The hand-minimal scenario (reports/mutants/minimal/pause-in-memory.json) has two faults and two publishes.
    expect(hunted.finding?.scenario.faults.length).toBeLessThanOrEqual(2);
    expect(hunted.finding?.scenario.task.operations.length).toBeLessThanOrEqual(2);
  });

  test('with a failure, only the runs up to it count, whatever came back past it: the same windows for one worker or two', async () => {
    const windowsWith = async (pool: WorkerPool) => {
      const loaded = await pool.load(bundledJournal('ignores-takeover')!);
      const hunted = await hunt({ pool, journalId: loaded.journalId, seed: 11, runs: 500, shrink: false, arbitrary: { faults: ['crash', 'store', 'duplicate'] } });
      return { runs: hunted.runsExecuted, coverage: hunted.coverage };
    };
    const a = await windowsWith(one);
    expect(a.runs).toBeLessThan(500);
    expect(await windowsWith(two)).toEqual(a);
  });
});
