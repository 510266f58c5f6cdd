/**
 * What one run's outcome means for the verdict. A run that the pool stopped (blocked, out of
 * memory) is a liveness failure of the journal; a harness error is durasim's own, never a finding;
 * an inspect() answer the judge cannot read is the adapter's bad input (usage), never judged.
 */
import { invariantKind, type InvariantCode, type Violation } from '../../model/violation.js';
import type { RunOutcome } from '../pool/workerPool.js';
import type { RunSummary } from '../pool/protocol.js';

export type RunVerdict = 'clean' | 'safety' | 'liveness' | 'sandbox' | 'usage' | 'harness';

/**
 * The invariants a check judges (`--invariants`, `--safety-only`); undefined: all of them. Sandbox
 * escapes and durasim's own failures are judged whatever the list says.
 */
export type Judged = readonly InvariantCode[] | undefined;

export function judgedViolations(violations: readonly Violation[], judged: Judged): Violation[] {
  return judged === undefined ? [...violations] : violations.filter((v) => judged.includes(v.code));
}

export function summaryVerdict(summary: RunSummary, judged?: Judged): RunVerdict {
  if (summary.escapes.length > 0) return 'sandbox';
  if ((summary.inspectProblems?.length ?? 0) > 0) return 'usage';
  const violations = judgedViolations(summary.violations, judged);
  if (violations.some((v) => invariantKind(v.code) === 'safety')) return 'safety';
  if (violations.length > 0) return 'liveness';
  return 'clean';
}

/** A run the pool stopped, as the judge would have reported it: a convergence violation. */
export function stoppedSummary(kind: 'journal-blocked' | 'journal-out-of-memory', detail: string): RunSummary {
  const violation: Violation = {
    code: 'convergence',
    key: '',
    step: 0,
    expected: 'the run to complete within its bounds',
    actual: `${kind}: ${detail}`,
    evidence: { outcome: { kind, detail } },
  };
  return { outcome: { kind, detail }, violations: [violation], escapes: [], stats: { steps: 0, incarnations: 0, virtualTimeMs: 0, traceEntries: 0 }, journalErrors: [], crashStates: [] };
}

/** The summary of any outcome (undefined for a harness error, or a run cancelled before it ran). */
export function summaryOf(outcome: RunOutcome): RunSummary | undefined {
  if (outcome.kind === 'simulated') return outcome.summary;
  if (outcome.kind === 'harness-error' || outcome.kind === 'cancelled') return undefined;
  return stoppedSummary(outcome.kind, outcome.detail);
}

export function outcomeVerdict(outcome: RunOutcome, judged?: Judged): RunVerdict {
  if (outcome.kind === 'cancelled') return 'clean'; // it never ran: nothing was found
  const summary = summaryOf(outcome);
  return summary === undefined ? 'harness' : summaryVerdict(summary, judged);
}

/** What a run counts toward in a tally: each invariant it broke (judged), 'sandbox' for an escape; none when clean. */
export function tallyCodes(outcome: RunOutcome, judged?: Judged): string[] {
  const summary = summaryOf(outcome);
  if (summary === undefined) return [];
  if (summary.escapes.length > 0) return ['sandbox'];
  return [...new Set(judgedViolations(summary.violations, judged).map((v) => v.code))];
}
