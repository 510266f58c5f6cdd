import { describe, expect, test } from 'vitest';
import type { InvariantCode, Violation } from '../../model/violation.js';
import { decideVerdict, type VerdictInput } from './confirmVerdict.js';
import type { WorkerStep } from './workerSteps.js';

const v = (code: InvariantCode, key = 'post-a'): Violation => ({ code, key, step: 3, expected: 'x', actual: 'y', evidence: {} });
const s = (n: number, op: string, call = 0): WorkerStep => ({ worker: 'worker-0#0', step: n, op, call });
const steps = [s(0, 'fetch'), s(1, 'fs.open', 1), s(2, 'fs.open')];
const base: VerdictInput = { simulated: [], found: [], traced: true, simulatedSteps: steps, realSteps: steps, order: { kind: 'same' } };
const another: Partial<VerdictInput> = { realSteps: [s(0, 'fetch'), s(1, 'fs.open'), s(2, 'fs.open', 1)], order: { kind: 'parted', at: 1, anotherOrder: true } };
const divergence = { mark: 'worker-0#0 step 1 fs.open', simulated: ['create a'], real: ['create a/b'] };

describe("confirm's label", () => {
  test('every simulated violation for real: confirmed, exit 1 (3 for liveness alone)', () => {
    expect(decideVerdict({ ...base, simulated: [v('write-ahead')], found: [v('write-ahead')] })).toMatchObject({ verdict: 'confirmed', exitCode: 1 });
    expect(decideVerdict({ ...base, simulated: [v('convergence')], found: [v('convergence')] })).toMatchObject({ verdict: 'confirmed', exitCode: 3 });
  });

  test("the same defect under another of its invariants: confirmed, naming what did not happen and what did instead", () => {
    const decided = decideVerdict({ ...base, simulated: [v('single-flight'), v('write-ahead')], found: [v('one-effect-per-key'), v('write-ahead')] });
    expect(decided).toMatchObject({ verdict: 'confirmed', exitCode: 1 });
    expect(decided.lines[0]).toBe('verdict: confirmed — the same defect in real processes: single-flight [post-a] did not happen for real, but the real run broke write-ahead [post-a], as simulated; one-effect-per-key [post-a], a consequence of single-flight (which invariants show one defect: docs/invariants.md)');
  });

  test('a real safety violation that is neither the finding nor its consequence is a finding of its own (exit 1), in another order too', () => {
    const decided = decideVerdict({ ...base, simulated: [v('failure-class-respected')], found: [v('no-secret-persisted')], ...another });
    expect(decided).toMatchObject({ verdict: 'another violation', exitCode: 1 });
    expect(decided.lines[0]).toBe('verdict: another violation — real processes, taking their steps in another order from worker step 1, broke no-secret-persisted [post-a], which is neither what the simulation found (failure-class-respected [post-a]) nor a consequence of it: a finding of its own');
    // A liveness violation alone is no such finding; a liveness finding is never confirmed by a safety one.
    expect(decideVerdict({ ...base, simulated: [v('write-ahead')], found: [v('convergence')] })).toMatchObject({ verdict: 'not reproduced', exitCode: 4 });
    expect(decideVerdict({ ...base, simulated: [v('convergence')], found: [v('write-ahead')] })).toMatchObject({ verdict: 'another violation', exitCode: 1 });
  });

  test('another order, and the finding did not happen: not reproduced (another order), exit 4, the real run judged and printed; both worlds clean too', () => {
    const decided = decideVerdict({ ...base, simulated: [v('single-flight')], found: [v('convergence')], ...another });
    expect(decided).toMatchObject({ verdict: 'not reproduced (another order)', exitCode: 4 });
    expect(decided.lines.slice(0, 3)).toEqual([
      'verdict: not reproduced (another order) — the real processes took the same steps in another order from worker step 1 (two calls or two workers, as real time let them), and single-flight [post-a] did not happen for real',
      '  the real run, judged: convergence [post-a]',
      '    convergence [post-a] at #3: expected x; actual y',
    ]);
    expect(decideVerdict({ ...base, ...another })).toMatchObject({ verdict: 'not reproduced (another order)', exitCode: 4 });
  });

  test('diverged only with a step both worlds took alike whose calls differ; a finding confirmed still says it', () => {
    expect(decideVerdict({ ...base, divergence })).toMatchObject({ verdict: 'diverged', exitCode: 6 });
    const confirmed = decideVerdict({ ...base, simulated: [v('write-ahead')], found: [v('write-ahead')], divergence });
    expect(confirmed).toMatchObject({ verdict: 'confirmed', exitCode: 1 });
    expect(confirmed.lines).toContain('  and the simulation diverged from the real calls:');
  });

  test('clean in both, in the same order: both clean; untraced, a durability finding a process kill cannot show: cannot confirm', () => {
    expect(decideVerdict(base)).toMatchObject({ verdict: 'both clean', exitCode: 0 });
    const pageCache = { ...v('write-ahead'), actual: 'no durable record of the key (only in the page cache)' };
    expect(decideVerdict({ ...base, traced: false, simulated: [pageCache] })).toMatchObject({ verdict: 'cannot confirm', exitCode: 2 });
  });
});
