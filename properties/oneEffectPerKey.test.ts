/**
 * The reference journal makes at most one effect per operation: every effect the service holds is
 * under the key of one of the task's operations (the reference's idempotency key is the operation's
 * key), and no operation has two. Counting per effect key alone could not fail on a journal that
 * mints a fresh key for a re-send (each effect its own key), and without service restarts a
 * re-send under the same key is always replayed by the service: the property runs with
 * `service-restart` in the families, and the two planted defects below show it firing under the
 * same generator, seed and budget.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { PublishOperation } from '../model/contract/contract.js';
import type { FaultKind } from '../src/arbitraries.js';
import { scenarioArbitrary } from '../src/arbitraries.js';
import { journalFrom, referenceJournal, ReferenceRun, type Intent } from '../src/journals/reference.js';
import { journal as resendInsteadOfQuery } from '../src/journals/mutants/resendInsteadOfQuery.js';
import type { Scenario } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

const FAULTS: FaultKind[] = ['crash', 'disk', 'response', 'duplicate', 'user', 'service-restart'];
const RUNS = runs(1000);
const SEED = seed(4242);

/** What is wrong with the run's effects, or undefined: an effect under a key no operation has, or an operation with two. */
async function effectsWrong(journal: typeof referenceJournal, scenario: Scenario): Promise<string | undefined> {
  const result = await simulate(journal, scenario);
  const operationKeys = new Set(scenario.task.operations.map((op) => op.key));
  const perKey = new Map<string, number>();
  for (const effect of result.effects) {
    if (!operationKeys.has(effect.key)) return `an effect under ${effect.key}, the key of no operation`;
    perKey.set(effect.key, (perKey.get(effect.key) ?? 0) + 1);
  }
  for (const [key, count] of perKey) if (count > 1) return `${count} effects for ${key}`;
  if (result.outcome.kind !== 'completed') return `the run ended ${result.outcome.kind}`;
  return undefined;
}

/** A planted defect: a re-dispatch is sent under a freshly minted key (the service cannot tell it is the same operation). */
class NewKeyOnResend extends ReferenceRun {
  private dispatches = 0;
  protected override async dispatch(op: PublishOperation, intent: Intent) {
    await this.record({ key: op.key, state: 'dispatched', digest: intent.digest });
    this.dispatches += 1;
    return this.post(this.dispatches > 1 ? `${op.key}-retry-${this.dispatches}` : op.key, intent);
  }
}
const newKeyOnResend = journalFrom('new-key-on-resend', (env, task) => new NewKeyOnResend(env, task));

describe('the reference journal under crashes, response faults, duplicate deliveries, user edits and service restarts', () => {
  test.prop([scenarioArbitrary({ faults: FAULTS })], { numRuns: RUNS, seed: SEED })(
    'makes at most one effect per operation, each under its operation key',
    async (scenario) => {
      expect(await effectsWrong(referenceJournal, scenario)).toBeUndefined();
    },
    PROPERTY_TIMEOUT_MS,
  );

  test.each([
    ['a re-send under a freshly minted key', newKeyOnResend, /^an effect under .+-retry-\d+, the key of no operation$/],
    ['a re-send instead of a query, across a restart that forgets keys (mutant resend-instead-of-query)', resendInsteadOfQuery, /^[2-9] effects for /],
  ])('fires on %s, with the same generator, seed and budget', async (_name, journal, expected) => {
    const outcome = await fc.check(
      fc.asyncProperty(scenarioArbitrary({ faults: FAULTS }), async (scenario) => (await effectsWrong(journal, scenario)) === undefined),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect(outcome.failed).toBe(true);
    expect(await effectsWrong(journal, outcome.counterexample![0])).toMatch(expected);
  }, PROPERTY_TIMEOUT_MS);
});
