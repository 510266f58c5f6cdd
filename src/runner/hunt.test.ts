/**
 * hunt's stored regressions, against a pool that answers when told to: they are all sent at once
 * (every worker replays its share), judged in their stored order whatever order they come back in,
 * and the replays not yet started when one fails are taken back. And a hunt stopped (a signal):
 * what it found is kept, shrunk as far as it got.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { bundledJournal, type JournalRef } from '../isolation/journalRef.js';
import { WorkerPool, type RunOutcome } from '../pool/workerPool.js';
import type { Regression } from '../regressions.js';
import { hunt } from './hunt.js';

/** A pool whose runs come back when the test resolves them; it notes which tags a cancel() takes back. */
function heldPool(): { pool: WorkerPool; runs: { tag: number; answer: (outcome: RunOutcome) => void }[]; takenBack: number[] } {
  const runs: { tag: number; answer: (outcome: RunOutcome) => void }[] = [];
  const takenBack: number[] = [];
  const pool = {
    run: (_journalId: number, _scenario: unknown, _request: unknown, tag = -1) => new Promise<RunOutcome>((answer) => runs.push({ tag, answer })),
    // The tags a pool may hold: the untagged (-1), generated runs' indexes, and the regressions'.
    cancel: (matches: (tag: number) => boolean) => takenBack.push(...[-1, 0, 1, 7, ...runs.map((run) => run.tag)].filter(matches)),
  } as unknown as WorkerPool;
  return { pool, runs, takenBack };
}

const stored = (file: string): Regression => ({ file, scenario: {} as Scenario, info: { journal: 'x', invariants: [] } });
const CLEAN: RunOutcome = { kind: 'cancelled' }; // judged clean: nothing was found
const broke = (what: string): RunOutcome => ({ kind: 'harness-error', message: `${what} broke` });
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('stored regressions are sent at once, judged in their order, and those not started when one fails are taken back', async () => {
  const { pool, runs, takenBack } = heldPool();
  let returned = false;
  const hunting = hunt({ pool, journalId: 0, seed: 1, runs: 0, regressions: ['a', 'b', 'c', 'd'].map(stored) }).then((result) => {
    returned = true;
    return result;
  });
  await settle();
  // All four are in the pool before any comes back, each under a tag of its own below the untagged -1.
  expect(runs.map((run) => run.tag)).toEqual([-2, -3, -4, -5]);
  // d and c fail first, a is clean: hunt still waits for b, stored before c.
  runs[3]?.answer(broke('d'));
  runs[2]?.answer(broke('c'));
  runs[0]?.answer(CLEAN);
  await settle();
  expect(returned).toBe(false);
  expect(takenBack).toEqual([]);
  runs[1]?.answer(CLEAN);
  const result = await hunting;
  expect(result.finding?.origin).toEqual({ regression: 'c' });
  expect(result.finding?.outcome).toEqual(broke('c'));
  expect(result.runsExecuted).toBe(3);
  // What is taken back is the regressions' replays alone: never an untagged run or a generated run's index.
  expect(takenBack).toEqual([-2, -3, -4, -5]);
});

test('stopped (a signal) while stored regressions replay: those not started are taken back and not counted, and no generated run is drawn', async () => {
  const runs: { tag: number; answer: (outcome: RunOutcome) => void }[] = [];
  const pool = {
    size: 1,
    run: (_journalId: number, _scenario: unknown, _request: unknown, tag = -1) => new Promise<RunOutcome>((answer) => runs.push({ tag, answer })),
    runGenerated: () => {
      throw new Error('no generated run may be drawn once stopped');
    },
    cancel: (matches: (tag: number) => boolean) => {
      for (const run of runs.splice(1)) if (matches(run.tag)) run.answer({ kind: 'cancelled' });
    },
  } as unknown as WorkerPool;
  let stop = false;
  const hunting = hunt({ pool, journalId: 0, seed: 1, runs: 50, regressions: ['a', 'b', 'c'].map(stored), stop: () => stop });
  await settle();
  stop = true;
  // a was under way: it ends, and counts.
  runs[0]?.answer({ kind: 'simulated', summary: { outcome: { kind: 'completed' }, violations: [], escapes: [], stats: { steps: 1, incarnations: 1, virtualTimeMs: 0, traceEntries: 1 }, journalErrors: [], crashStates: [] } });
  const result = await hunting;
  expect(result).toMatchObject({ runsExecuted: 1, storedReplayed: 1, stopped: true });
  expect(result.finding).toBeUndefined();
});

describe('a stopped hunt keeps what it found', () => {
  // One worker: what an exploration or a hunt finds does not depend on the count (src/pool/workerPool.test.ts), and on 2 cores under
  // vitest's two forks a second worker adds its boot and warm-up (~5 s of CPU over these files) and takes no wall time off.
  const pool = new WorkerPool({ workers: 1 });
  afterAll(() => pool.close());

  test('stopped while shrinking: the smallest failing scenario so far, said so; stopped before: saved as found', async () => {
    const { journalId } = await pool.load(bundledJournal('no-fsync') as JournalRef);
    const whole = await hunt({ pool, journalId, seed: 5, runs: 200 });
    expect(whole.finding?.shrink?.stopped).toBeUndefined();
    let shrinking = false;
    const cut = await hunt({ pool, journalId, seed: 5, runs: 200, onShrink: () => (shrinking = true), stop: () => shrinking });
    expect(cut.finding?.shrink?.stopped).toBe(true);
    expect(cut.finding?.shrink?.attempts).toBeLessThan(whole.finding?.shrink?.attempts ?? 0);
    expect(cut.finding?.verdict).toBe(whole.finding?.verdict);
    // A tally stopped after 20 runs: the counts so far, each counterexample as found.
    let done = 0;
    const tally = await hunt({ pool, journalId, seed: 5, runs: 200, tally: true, onProgress: (n) => (done = n), stop: () => done >= 20 });
    expect(tally.stopped).toBe(true);
    expect(tally.runsExecuted).toBeLessThan(200);
    expect(tally.tally?.findings.length).toBeGreaterThan(0);
    for (const finding of tally.tally?.findings ?? []) expect(finding.notShrunk).toBe('the check was interrupted before it was shrunk');
  });
});
