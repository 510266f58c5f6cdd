/**
 * A journal's run() made one call at a time per task within its process: a second call of the same
 * task (a concurrent-call: a server handling a retried request, an engine running an activity
 * twice) waits until the first returned, then runs — and finds the task's records as the first
 * left them. Across processes the journal's file lock (or the store's lease) decides; inside one
 * process that lock cannot, since both calls are the same pid. The calls under way are kept per
 * env, which is one per process: a crashed process's call, which never returns, holds up nothing
 * after it (even where module memory outlives a crash, as under simulate() with shared modules).
 * A single call runs exactly as before: no step, no tick is added.
 */
import type { Env, Task } from '../../model/contract/contract.js';

type Run = (env: Env, task: Task) => Promise<void>;

export function oneCallAtATime(run: Run): Run {
  const underWay = new WeakMap<Env, Map<string, Promise<void>>>();
  return async (env, task) => {
    let calls = underWay.get(env);
    if (calls === undefined) underWay.set(env, (calls = new Map()));
    const before = calls.get(task.id);
    const mine = before === undefined ? run(env, task) : before.catch(() => undefined).then(() => run(env, task));
    calls.set(task.id, mine);
    try {
      await mine;
    } finally {
      if (calls.get(task.id) === mine) calls.delete(task.id);
    }
  };
}
