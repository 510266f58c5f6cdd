/**
 * A journal's run() made one call at a time per task within its process: a second call of the same
 * task (a concurrent-call: a server handling a retried request, an engine running an activity
 * twice) waits until the first returned, then runs — and finds the task's records as the first
 * left them. Across processes the journal's file lock (or the store's lease) decides; inside one
 * process that lock cannot, since both calls are the same pid. The calls under way are kept per
 * env, which is one per process: a crashed process's call, which never returns, holds up nothing
 * after it (even where module memory outlives a crash, as under simulate() with shared modules).
 * A single call runs exactly as before: no step, no tick is added.
 *
 * The calls sit on the env itself (a symbol-keyed property), not in a WeakMap keyed by env: V8's
 * young-generation collections keep a WeakMap's values whatever becomes of their keys, so a crashed
 * call's entry, which is never removed, kept its whole world (the env reaches it) through every
 * young collection until a full one: measured, about a fifth of what each scenario left behind.
 */
import type { Env, Task } from '../../model/contract/contract.js';

type Run = (env: Env, task: Task) => Promise<void>;

export function oneCallAtATime(run: Run): Run {
  const UNDER_WAY = Symbol('durasim.callsUnderWay');
  return async (env, task) => {
    const holder = env as unknown as Record<symbol, Map<string, Promise<void>> | undefined>;
    let calls = holder[UNDER_WAY];
    if (calls === undefined) holder[UNDER_WAY] = calls = new Map();
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
