/**
 * When a real run confirms a simulated finding though it broke other invariants: the rule.
 *
 * Real processes run the scenario again on a real clock; where its timing differs, the same
 * defect may show under another invariant. A real safety violation confirms the simulated finding
 * when its invariant is one the simulation broke, or a consequence of one (below); every real
 * violation is named either way, and one that is neither is a finding of its own (exit 1, never a
 * silent "not reproduced").
 *
 * - A duplicate send — one operation's write sent more than once — is one defect, whichever of
 *   these shows it: `single-flight` (the second arrived while the first was in flight),
 *   `no-blind-retry` (sent again without asking, to a service that promises no replay),
 *   `one-effect-per-key` (the service committed it twice), `completed-replayed` (sent after it
 *   succeeded), `retry-safe-only` (sent again after a crash without a query). Timing (was the first
 *   still in flight, answered, committed, recorded?) and the service's memory decide which: each
 *   confirms every other.
 * - A worker that should have stopped and sends (`cas-loser-stops`, `takeover-exclusive`,
 *   `fenced-effects`, `single-advancer`) sends a duplicate: its consequences are the duplicate's.
 * - A send before its intent is durable (`write-ahead`): a crash then loses the record, so the
 *   history skips states (`no-state-skip`), an effect stands with no dispatched record
 *   (`truthful-outcome`), and recovery, knowing nothing, sends again (the duplicate's).
 * - A recovery that does not reconcile first (`no-state-skip`): it sends again (the duplicate's)
 *   and may record what did not happen (`truthful-outcome`).
 * - A user's save overwritten (`no-silent-overwrite`) is a file that holds neither what it was
 *   read from nor the user's save (`file-truth`), and the other way round: each confirms the other.
 * - A receipt judged against other arguments (`recorded-intent-wins`) records a false success
 *   (`truthful-outcome`); a receipt dropped (`evidence-retained`) misstates the outcome and gets the
 *   operation executed again (`truthful-outcome`, `completed-replayed`); a write after the cancel
 *   (`no-effect-after-cancel`) leaves an effect a cancelled record denies (`cancel-truth`).
 * Nothing else is related: a liveness violation never confirms a safety finding, nor the other way.
 */
import type { InvariantCode } from '../../model/violation.js';

const DUPLICATE: readonly InvariantCode[] = ['single-flight', 'no-blind-retry', 'one-effect-per-key', 'completed-replayed', 'retry-safe-only'];

/** Each invariant's consequences: the invariants the same defect may break instead, in another timing. */
export const CONSEQUENCES: Readonly<Partial<Record<InvariantCode, readonly InvariantCode[]>>> = {
  ...Object.fromEntries(DUPLICATE.map((code) => [code, DUPLICATE])),
  'cas-loser-stops': DUPLICATE,
  'takeover-exclusive': DUPLICATE,
  'fenced-effects': DUPLICATE,
  'single-advancer': DUPLICATE,
  'write-ahead': ['no-state-skip', 'truthful-outcome', ...DUPLICATE],
  'no-state-skip': ['truthful-outcome', ...DUPLICATE],
  'no-silent-overwrite': ['file-truth'],
  'file-truth': ['no-silent-overwrite'],
  'recorded-intent-wins': ['truthful-outcome'],
  'evidence-retained': ['truthful-outcome', 'completed-replayed'],
  'no-effect-after-cancel': ['cancel-truth'],
};

/** The simulated invariant a real one shows the defect of: itself, or one whose consequence it is; undefined when it is none of them. */
export function defectShown(real: InvariantCode, simulated: readonly InvariantCode[]): InvariantCode | undefined {
  return simulated.find((code) => code === real) ?? simulated.find((code) => CONSEQUENCES[code]?.includes(real));
}
