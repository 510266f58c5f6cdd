/**
 * What the coordination invariants share: which store keys are the task's (its prefix), who held
 * the task's lease when (replayed from the store's ground truth, on the store's clock), and the
 * worker slot of a caller.
 *
 * Conventions (docs/store.md): the task's lease is the lease named after the task id; the task's
 * checkpoint keys are the keys that start with "<task id>/". A journal whose workers never take
 * the lease is not judged by the invariants about it (an operator's lease does not make it one).
 */
import type { JudgeInput, StoreCallEvidence } from '../evidence.js';

/** "worker-3#1" → "worker-3": the worker slot, which a supervisor restarts as the same principal. */
export const slotOf = (caller: string): string => caller.replace(/#\d+$/, '');

/** A conditional store write: on a version, on absence, or under a lease. What advances a checkpoint, and what can be lost. */
export const isConditional = (request: StoreCallEvidence['request']): boolean => request.ifVersion !== undefined || request.ifAbsent === true || request.lease !== undefined;

export const taskIdOf = (input: JudgeInput): string => input.scenario.task.id ?? 'task-1';

export const isTaskKey = (input: JudgeInput, key: string | undefined): boolean => key !== undefined && key.startsWith(`${taskIdOf(input)}/`);

interface Tenure {
  holder: string;
  token: number;
  /** The trace position of the grant: calls at the same store time are ordered by it. */
  fromSeq: number;
  fromMs: number;
  /** Until this store time (exclusive), after renewals. */
  untilMs: number;
  /** The trace position of the release or restart that ended it early, if one did. */
  endSeq?: number;
}

/** Every tenure of the task's lease, in order: who held it, with which token, from when until when (store's clock). */
export function leaseTenures(input: JudgeInput): Tenure[] {
  const store = input.store;
  if (!store) return [];
  const name = taskIdOf(input);
  const tenures: Tenure[] = [];
  const events = [
    ...store.calls.filter((c) => c.applied && c.request.name === name).map((c) => ({ seq: c.seq, call: c as StoreCallEvidence | undefined, restartAtMs: undefined as number | undefined })),
    ...store.restarts.filter((r) => r.memory === 'volatile').map((r) => ({ seq: r.seq, call: undefined, restartAtMs: r.storeTimeMs })),
  ].sort((a, b) => a.seq - b.seq);
  for (const { seq, call, restartAtMs } of events) {
    const current = tenures.at(-1);
    // A release or a volatile restart ends it at its place in the trace (same-millisecond calls are ordered by it).
    const end = (atMs: number): void => {
      if (current && current.untilMs > atMs && current.endSeq === undefined) current.endSeq = seq;
    };
    if (restartAtMs !== undefined) {
      end(restartAtMs);
      continue;
    }
    const c = call as StoreCallEvidence;
    const lease = c.answer.lease;
    if (c.request.op === 'acquire' && lease) tenures.push({ holder: slotOf(c.by), token: lease.token, fromSeq: c.seq, fromMs: c.storeTimeMs, untilMs: lease.expiresAtMs });
    if (c.request.op === 'renew' && lease && current && current.token === lease.token) current.untilMs = lease.expiresAtMs;
    if (c.request.op === 'release') end(c.storeTimeMs);
  }
  return tenures;
}

/** Who held the task's lease at trace position seq, store time t, if anyone: granted by then, not yet expired or given up. */
export function holderAt(tenures: readonly Tenure[], seq: number, t: number): Tenure | undefined {
  return tenures.findLast((x) => x.fromSeq <= seq && t < x.untilMs && (x.endSeq === undefined || seq < x.endSeq));
}

/** Whether the journal's workers take the task's lease at all: only then do the coordination invariants judge it. */
export function workersTakeLease(tenures: readonly Tenure[]): boolean {
  return tenures.some((t) => t.holder.startsWith('worker-'));
}
