/**
 * The fault families a run may draw. `disk` lets crashes lose unsynced data (machine crashes:
 * per-file persistence, torn appends and rewrites, zero and garbage tails); `io` fails disk calls
 * (EIO, ENOSPC with short writes, fsync failing as on Linux); `store` draws the shared store's
 * faults, pauses and takeovers; `failure` the service's failure classes (400, 403, 503 with a wait,
 * a reset after the commit) and a retry budget on the task. `concurrent` delivers the task a second
 * time to the running process, as a concurrent call of run() sharing its module memory (a server, a
 * workflow engine): in the defaults, unless the journal is only ever called one at a time (the
 * config's `"calls": "one-at-a-time"`), since a journal run as one process per task never meets it.
 */
export const FAULT_KINDS = ['crash', 'disk', 'io', 'response', 'duplicate', 'user', 'service-restart', 'intent', 'store', 'failure', 'concurrent'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** The families drawn when none are named: all of them, concurrent calls too (a journal may be called more than once at a time). */
export const DEFAULT_FAULT_KINDS: readonly FaultKind[] = FAULT_KINDS;
/** How a journal is called: `concurrent` (the default: it may be called again while a call is under way), or `one-at-a-time`. */
export type Calls = 'concurrent' | 'one-at-a-time';
export const CALLS: readonly Calls[] = ['concurrent', 'one-at-a-time'];
/** The families drawn when none are named, for a journal called so: one called one at a time never meets a concurrent call. */
export function defaultFaultKinds(calls: Calls | undefined): FaultKind[] {
  return calls === 'one-at-a-time' ? FAULT_KINDS.filter((kind) => kind !== 'concurrent') : [...FAULT_KINDS];
}
