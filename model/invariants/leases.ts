/**
 * What the coordination invariants share: which store keys are the task's (its prefix), who held
 * the task's lease when (replayed from the store's ground truth, on the store's clock), and the
 * worker slot of a caller.
 *
 * Conventions (docs/store.md): the task's lease is the lease named after the task id; the task's
 * checkpoint keys are the keys that start with "<task id>/". A journal that uses neither is not
 * judged by these invariants.
 */
import type { JudgeInput, StoreCallEvidence } from '../evidence.js';

/** "worker-3#1" → "worker-3": the worker slot, which a supervisor restarts as the same principal. */
export const slotOf = (caller: string): string => caller.replace(/#\d+$/, '');

export const taskIdOf = (input: JudgeInput): string => input.scenario.task.id ?? 'task-1';

export const isTaskKey = (input: JudgeInput, key: string | undefined): boolean => key !== undefined && key.startsWith(`${taskIdOf(input)}/`);

interface Tenure {
  holder: string;
  token: number;
  fromMs: number;
  /** Until this store time (exclusive), after renewals; cut short by a release or a volatile restart. */
  untilMs: number;
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
  for (const { call, restartAtMs } of events) {
    const current = tenures.at(-1);
    if (restartAtMs !== undefined) {
      if (current && current.untilMs > restartAtMs) current.untilMs = restartAtMs;
      continue;
    }
    const c = call as StoreCallEvidence;
    const lease = c.answer.lease;
    if (c.request.op === 'acquire' && lease) tenures.push({ holder: slotOf(c.by), token: lease.token, fromMs: c.storeTimeMs, untilMs: lease.expiresAtMs });
    if (c.request.op === 'renew' && lease && current && current.token === lease.token) current.untilMs = lease.expiresAtMs;
    if (c.request.op === 'release' && current && current.untilMs > c.storeTimeMs) current.untilMs = c.storeTimeMs;
  }
  return tenures;
}

/** Who held the task's lease at store time t, if anyone. */
export function holderAt(tenures: readonly Tenure[], t: number): Tenure | undefined {
  return tenures.findLast((x) => x.fromMs <= t && t < x.untilMs);
}

export function leaseInUse(input: JudgeInput): boolean {
  return leaseTenures(input).length > 0;
}
