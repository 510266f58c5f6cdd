/**
 * A journal that reports only its current state is judged on the histories durasim observes:
 * it passes when it is correct, and it is caught when it skips a state.
 */
import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { judge } from '../model/judge.js';
import { describeViolation } from '../model/violation.js';
import { scenarioArbitrary } from '../src/arbitraries.js';
import { simulate } from '../simulator/simulate.js';
import { skipsReconcilingJournal, stateFileJournal } from './fixtures/stateFileJournal.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';
import fc from 'fast-check';

describe('a journal that keeps only the current state of each key', () => {
  test.prop([scenarioArbitrary()], { numRuns: runs(600), seed: seed(606) })(
    'keeps every invariant when it is correct',
    async (scenario) => {
      const result = await simulate(stateFileJournal, scenario);
      expect(result.inspectErrors).toEqual([]);
      expect(judge(result).map(describeViolation)).toEqual([]);
    },
    PROPERTY_TIMEOUT_MS,
  );

  test('is caught skipping reconciling, at the step where the skip became durable', async () => {
    const outcome = await fc.check(
      fc.asyncProperty(scenarioArbitrary({ faults: ['crash', 'response'] }), async (scenario) => {
        const result = await simulate(skipsReconcilingJournal, scenario);
        return !judge(result).some((v) => v.code === 'no-state-skip');
      }),
      { numRuns: runs(2000), seed: seed(607) },
    );
    expect(outcome.failed).toBe(true);
    const result = await simulate(skipsReconcilingJournal, outcome.counterexample?.[0]);
    const skip = judge(result).find((v) => v.code === 'no-state-skip');
    expect(skip?.actual).toMatch(/^(dispatched|outcome_unknown) → (dispatched|succeeded|conflict|outcome_unknown)$/);
    // The marker points at the directory fsync that made the skipped-to state durable (not at a crash).
    expect(result.trace[skip?.step ?? 0]).toMatchObject({ op: 'fh.sync', detail: '/work/' });
  }, PROPERTY_TIMEOUT_MS);
});
