/**
 * The mutant corpus: the reference journal with one realistic defect each. durasim must kill
 * every one; a change that lets one survive is a regression.
 */
import type { JournalAdapter } from '../../../model/contract/contract.js';
import type { InvariantCode } from '../../../model/violation.js';
import { FAULT_KINDS, type FaultKind } from '../../arbitraries.js';
import { journal as acceptedAsSuccess } from './acceptedAsSuccess.js';
import { journal as blindOverwrite } from './blindOverwrite.js';
import { journal as conflictAsSuccess } from './conflictAsSuccess.js';
import { journal as fsyncFailureRetried } from './fsyncFailureRetried.js';
import { journal as newProcessArgs } from './newProcessArgs.js';
import { journal as noFsync } from './noFsync.js';
import { journal as overwriteInPlace } from './overwriteInPlace.js';
import { journal as resendInsteadOfQuery } from './resendInsteadOfQuery.js';
import { journal as retryUnsafeWrite } from './retryUnsafeWrite.js';
import { journal as sendBeforeDispatched } from './sendBeforeDispatched.js';
import { journal as shortWriteIgnored } from './shortWriteIgnored.js';
import { journal as succeededBeforeReceipt } from './succeededBeforeReceipt.js';
import { journal as timeoutMeansFailed } from './timeoutMeansFailed.js';
import { journal as tornTailFatal } from './tornTailFatal.js';
import { journal as trustAnyReceipt } from './trustAnyReceipt.js';
import { journal as unsyncedDelivery } from './unsyncedDelivery.js';
import { journal as zeroTailReset } from './zeroTailReset.js';
import { journal as leaseByOwnClock } from './leaseByOwnClock.js';
import { journal as noFencingToken } from './noFencingToken.js';
import { journal as continuesAfterLostCas } from './continuesAfterLostCas.js';
import { journal as ignoresTakeover } from './ignoresTakeover.js';
import { journal as projectionBeforeEvent } from './projectionBeforeEvent.js';
import { journal as repairsProjection } from './repairsProjection.js';
import { journal as tokenInCheckpoint } from './tokenInCheckpoint.js';
import { journal as retriesInvalidArgument } from './retriesInvalidArgument.js';
import { journal as ignoresRetryAfter } from './ignoresRetryAfter.js';
import { journal as budgetInMemory } from './budgetInMemory.js';
import { journal as cancelCheckedAtStart } from './cancelCheckedAtStart.js';
import { journal as cancelRollsBack } from './cancelRollsBack.js';
import { journal as inputCheckedOnce } from './inputCheckedOnce.js';
import { journal as cleanupByPrefix } from './cleanupByPrefix.js';
import { journal as cleanupDeletesJournal } from './cleanupDeletesJournal.js';
import { journal as registersAfterCreate } from './registersAfterCreate.js';
import { journal as deletionNotSynced } from './deletionNotSynced.js';
import { journal as waitInMemory } from './waitInMemory.js';
import { journal as pauseInMemory } from './pauseInMemory.js';
import { journal as leaseCheckThenCreate } from './leaseCheckThenCreate.js';
import { journal as claimAfterLease } from './claimAfterLease.js';
import { coordinatedJournal } from '../coordinated.js';

export interface Mutant {
  journal: JournalAdapter;
  defect: string;
  /** The invariants its defect should break (any of them firing kills it). */
  breaks: InvariantCode[];
  /** The correct journal it is a mutant of (default: the reference journal). */
  reference?: JournalAdapter;
  /**
   * Found only when faults meet in a window the generator reaches rarely (it may aim at it, but
   * the draws that must coincide are still rare): held to being killed within the budget, and
   * reported, but not counted in the corpus's runs-to-detection bounds. Says what must meet.
   */
  rareWindow?: string;
  /**
   * The fault families its hunts and explorations draw, when check's default cannot reach its
   * defect: a server's journal is checked with concurrent calls named (`--faults …,concurrent`).
   */
  faults?: readonly FaultKind[];
}

/** The generator's options a mutant is hunted with: check's defaults, or the families it names. */
export function mutantArbitrary(mutant: Mutant): { arbitrary?: { faults: readonly FaultKind[] } } {
  return mutant.faults ? { arbitrary: { faults: mutant.faults } } : {};
}

/** Every family check can draw, concurrent calls among them: what a server's journal is checked with. */
const WITH_CONCURRENT_CALLS: readonly FaultKind[] = FAULT_KINDS;

export const MUTANTS: Mutant[] = [
  { journal: sendBeforeDispatched, defect: 'the request leaves before dispatched is durable', breaks: ['write-ahead'] },
  { journal: noFsync, defect: 'appends without fsync', breaks: ['write-ahead', 'truthful-outcome'] },
  { journal: timeoutMeansFailed, defect: 'a timeout is recorded failed; the next incarnation re-sends under a fresh key', breaks: ['no-blind-retry', 'one-effect-per-key', 'truthful-outcome'] },
  { journal: conflictAsSuccess, defect: '409 recorded as succeeded', breaks: ['truthful-outcome'] },
  { journal: trustAnyReceipt, defect: 'any 200/201 body accepted without checks', breaks: ['truthful-outcome'] },
  { journal: blindOverwrite, defect: "delivery without re-checking the file's digest", breaks: ['no-silent-overwrite'] },
  { journal: newProcessArgs, defect: "recovery checks receipts against the new incarnation's arguments", breaks: ['recorded-intent-wins', 'truthful-outcome'] },
  { journal: succeededBeforeReceipt, defect: 'succeeded written before the receipt is checked', breaks: ['no-state-skip', 'truthful-outcome'] },
  { journal: resendInsteadOfQuery, defect: 're-POSTs on restart instead of querying', breaks: ['no-blind-retry', 'retry-safe-only', 'one-effect-per-key'] },
  { journal: tornTailFatal, defect: 'recovery throws on a partial last line', breaks: ['convergence'] },
  { journal: retryUnsafeWrite, defect: 're-runs a started write whose retrySafe is false', breaks: ['retry-safe-only', 'no-state-skip'] },
  { journal: acceptedAsSuccess, defect: '202 recorded as succeeded', breaks: ['truthful-outcome'] },
  { journal: unsyncedDelivery, defect: 'applied recorded before the delivered file is durable', breaks: ['file-truth'] },
  { journal: fsyncFailureRetried, defect: 'a failed fsync is retried and the record trusted (Linux: the retry succeeds, the data never reached the disk)', breaks: ['write-ahead'] },
  { journal: shortWriteIgnored, defect: 'an append that failed part-way (ENOSPC, EIO) is ignored and the run goes on', breaks: ['write-ahead', 'no-state-skip'] },
  { journal: zeroTailReset, defect: 'a log ending in zeros or garbage (size persisted, data not) is taken for corruption and started over', breaks: ['no-state-skip', 'completed-replayed'] },
  { journal: overwriteInPlace, defect: 'the log rewritten in place at every record (no temp file, no rename)', breaks: ['no-state-skip', 'truthful-outcome'] },
  { journal: leaseByOwnClock, defect: "the lease judged by the worker's own clock instead of renewed with the store; events taken by compare-and-set alone", breaks: ['single-advancer', 'takeover-exclusive', 'convergence'], reference: coordinatedJournal },
  { journal: noFencingToken, defect: "POSTs sent without the lease's fencing token", breaks: ['fenced-effects'], reference: coordinatedJournal },
  { journal: continuesAfterLostCas, defect: 'a refused event slot (taken by another worker, or its lease gone) is answered by taking the lease again and carrying on in the same incarnation', breaks: ['cas-loser-stops', 'no-state-skip'], reference: coordinatedJournal },
  { journal: ignoresTakeover, defect: 'a renewal refused because an operator took the task over is answered by taking the lease back by force', breaks: ['takeover-exclusive'], reference: coordinatedJournal },
  { journal: projectionBeforeEvent, defect: 'the projection written before the event it folds', breaks: ['projection-consistent'], reference: coordinatedJournal },
  { journal: repairsProjection, defect: 'a projection that does not fold the events is rewritten from them and the task goes on, instead of quarantined', breaks: ['projection-consistent'], reference: coordinatedJournal },
  { journal: tokenInCheckpoint, defect: "the intent record keeps the request's headers, the task's access token among them", breaks: ['no-secret-persisted'] },
  { journal: retriesInvalidArgument, defect: 'a 400 (invalid arguments) is taken for an unknown outcome, reconciled and sent again', breaks: ['failure-class-respected'] },
  { journal: ignoresRetryAfter, defect: "a 503 is sent again as soon as reconciling is done, whatever wait it asked for", breaks: ['failure-class-respected'] },
  { journal: budgetInMemory, defect: 'the retry budget is counted in memory, so every restart starts it afresh', breaks: ['retry-budget'] },
  { journal: cancelCheckedAtStart, defect: 'the cancel is looked at once, when the worker starts, never before a send', breaks: ['no-effect-after-cancel'] },
  { journal: cancelRollsBack, defect: 'a cancel records every unfinished operation cancelled, one that may have landed included', breaks: ['cancel-truth', 'no-state-skip'] },
  { journal: inputCheckedOnce, defect: 'the input a plan was made from is read back once per incarnation and trusted from then on', breaks: ['version-change-pauses'] },
  { journal: cleanupByPrefix, defect: "the cleanup deletes every temp file whose name starts with the task's id (task-10's too), not the ones it registered", breaks: ['cleanup-owned-only'] },
  { journal: cleanupDeletesJournal, defect: "the cleanup deletes the journal's log with the temp files once the task is done", breaks: ['evidence-retained'] },
  { journal: registersAfterCreate, defect: 'a temp file is created before it is registered (a crash between leaves one no cleanup finds)', breaks: ['convergence'] },
  { journal: deletionNotSynced, defect: "the cleanup records its receipts without an fsync of the folder (a machine crash brings the deleted files back)", breaks: ['convergence'] },
  { journal: waitInMemory, defect: "a 503's wait is kept in memory: the same incarnation waits, the next one after a restart sends at once", breaks: ['failure-class-respected'], rareWindow: 'a 503 on a publish asking for a wait longer than a restart takes, then a kill of its worker before the wait is over (the generator draws a kill after a 503 or a 403 since 2026-12-03; found in 14 to 786 runs at seeds 1-3, 219 at its own: within the budget, not yet within the bounds)' },
  { journal: pauseInMemory, defect: 'a 403 pauses the task in memory: after a restart the next operations are sent', breaks: ['failure-class-respected'] },
  { journal: leaseCheckThenCreate, defect: 'the task lease is taken by looking for the lock file, then writing one: a duplicate worker that looks between the two takes it too', breaks: ['single-flight', 'write-ahead', 'file-truth'] },
  { journal: claimAfterLease, defect: "a server's per-process claim on its task is made after the lease is taken (an await): a concurrent call that looks in between runs the task too", breaks: ['single-flight', 'no-state-skip', 'write-ahead'], faults: WITH_CONCURRENT_CALLS },
];

export function mutantNamed(name: string): Mutant | undefined {
  return MUTANTS.find((m) => m.journal.name === name);
}
