import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/**
 * cancel-truth: a cancel stops what has not happened; it does not undo what has. An operation the
 * journal records `cancelled` (at the end, on either image) must have no effect at the service —
 * committed before the cancel or after it (a request that left before the cancel may land later).
 * An effect that existed before the run (another writer's, even of the same intent) is not its own.
 * An effect that happened is recorded as happened; undoing it is a compensation: a new keyed
 * action, never a rewritten or deleted history (no-state-skip judges deletions).
 */
export function checkCancelTruth(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  for (const image of ['durable', 'visible'] as const) {
    for (const [key, record] of Object.entries(input.final[image])) {
      if (record.kind !== 'operation' || record.history.at(-1) !== 'cancelled') continue;
      // This operation's effect: one a request of the run committed (an effect that existed before the run is not the journal's doing).
      const effect = input.effects.find((e) => e.key === key && e.requestIndex !== null);
      if (!effect || violations.some((v) => v.key === key)) continue;
      violations.push({
        code: 'cancel-truth',
        key,
        step: input.trace.length - 1,
        expected: `${key} recorded as what happened: the service committed it (receipt ${effect.receipt})`,
        actual: `it is recorded ${words.entry(record, record.history.length - 1)} on the ${image} image at the end, as if it never happened`,
        evidence: { effect, history: record.history },
      });
    }
  }
  return violations;
}
