/**
 * judge(result) → Violation[]: every invariant's check, run over a simulation's evidence.
 * Safety and liveness are reported apart (see verdict).
 */
import type { JudgeInput } from './evidence.js';
import { checkCasLoserStops } from './invariants/casLoserStops.js';
import { checkFencedEffects } from './invariants/fencedEffects.js';
import { checkProjectionConsistent } from './invariants/projectionConsistent.js';
import { checkNoSecretPersisted } from './invariants/noSecretPersisted.js';
import { checkFailureClassRespected } from './invariants/failureClassRespected.js';
import { checkRetryBudget } from './invariants/retryBudget.js';
import { checkNoEffectAfterCancel } from './invariants/noEffectAfterCancel.js';
import { checkCancelTruth } from './invariants/cancelTruth.js';
import { checkVersionChangePauses } from './invariants/versionChangePauses.js';
import { checkSingleAdvancer } from './invariants/singleAdvancer.js';
import { checkTakeoverExclusive } from './invariants/takeoverExclusive.js';
import { checkCompletedReplayed } from './invariants/completedReplayed.js';
import { checkCleanupOwnedOnly } from './invariants/cleanupOwnedOnly.js';
import { checkEvidenceRetained } from './invariants/evidenceRetained.js';
import { checkConvergence } from './invariants/convergence.js';
import { checkJournalError } from './invariants/journalError.js';
import { checkFileTruth } from './invariants/fileTruth.js';
import { checkNoBlindRetry } from './invariants/noBlindRetry.js';
import { checkNoSilentOverwrite } from './invariants/noSilentOverwrite.js';
import { checkNoStateSkip } from './invariants/noStateSkip.js';
import { checkOneEffectPerKey } from './invariants/oneEffectPerKey.js';
import { checkRecordedIntentWins } from './invariants/recordedIntentWins.js';
import { checkRetrySafeOnly } from './invariants/retrySafeOnly.js';
import { checkSingleFlight } from './invariants/singleFlight.js';
import { checkTruthfulOutcome } from './invariants/truthfulOutcome.js';
import { checkWriteAhead } from './invariants/writeAhead.js';
import { checkRoutedRequests } from './invariants/routedRequests.js';
import { checkFaultFreeEffects } from './invariants/faultFreeEffects.js';
import { invariantKind, type InvariantCode, type Violation } from './violation.js';
import { withRecordedIntents } from './recordedIntents.js';
import { withServiceFacts } from './serviceFacts.js';
import { wordsOf } from './stateWords.js';

export const CHECKS: Record<InvariantCode, (input: JudgeInput) => Violation[]> = {
  'one-effect-per-key': checkOneEffectPerKey,
  'single-flight': checkSingleFlight,
  'no-silent-overwrite': checkNoSilentOverwrite,
  'no-state-skip': checkNoStateSkip,
  'file-truth': checkFileTruth,
  'write-ahead': checkWriteAhead,
  'truthful-outcome': checkTruthfulOutcome,
  'recorded-intent-wins': checkRecordedIntentWins,
  'no-blind-retry': checkNoBlindRetry,
  'completed-replayed': checkCompletedReplayed,
  'retry-safe-only': checkRetrySafeOnly,
  'single-advancer': checkSingleAdvancer,
  'fenced-effects': checkFencedEffects,
  'cas-loser-stops': checkCasLoserStops,
  'takeover-exclusive': checkTakeoverExclusive,
  'projection-consistent': checkProjectionConsistent,
  'no-secret-persisted': checkNoSecretPersisted,
  'failure-class-respected': checkFailureClassRespected,
  'retry-budget': checkRetryBudget,
  'no-effect-after-cancel': checkNoEffectAfterCancel,
  'cancel-truth': checkCancelTruth,
  'version-change-pauses': checkVersionChangePauses,
  'cleanup-owned-only': checkCleanupOwnedOnly,
  'routed-requests': checkRoutedRequests,
  'fault-free-effects': checkFaultFreeEffects,
  'evidence-retained': checkEvidenceRetained,
  convergence: checkConvergence,
  'journal-error': checkJournalError,
};

export function judge(input: JudgeInput, only?: readonly InvariantCode[]): Violation[] {
  const codes = only ?? (Object.keys(CHECKS) as InvariantCode[]);
  const seen = withRecordedIntents(withoutFencedWrites(withServiceFacts(input)));
  const found = codes.flatMap((code) => CHECKS[code](seen)).sort((a, b) => a.step - b.step);
  if (seen.states === undefined) return found;
  // In the journal's own words, the model's in brackets once per violation (stateWords.ts).
  const words = wordsOf(seen);
  return found.map((v) => {
    const [expected, actual] = words.once([v.expected, v.actual]) as [string, string];
    return expected === v.expected && actual === v.actual ? v : { ...v, expected, actual };
  });
}

/**
 * A write the service refused for a stale fencing token had no effect and could have none: it is
 * the fencing working (a paused former lease holder thawed), so no check counts it as a write; so
 * is one refused (401) for a missing or wrong access token.
 * It keeps its place in the list (effects name requests by index), under a route of its own.
 */
function withoutFencedWrites(input: JudgeInput): JudgeInput {
  if (!input.requests.some((r) => r.fenced || r.unauthorized)) return input;
  return { ...input, requests: input.requests.map((r) => (r.fenced || r.unauthorized ? { ...r, route: { kind: 'fenced', ...(r.route.key !== undefined ? { key: r.route.key } : {}) } } : r)) };
}

export interface Verdict {
  safety: Violation[];
  liveness: Violation[];
}

export function verdict(violations: readonly Violation[]): Verdict {
  return {
    safety: violations.filter((v) => invariantKind(v.code) === 'safety'),
    liveness: violations.filter((v) => invariantKind(v.code) === 'liveness'),
  };
}
