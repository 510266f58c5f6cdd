/**
 * Mutant claim-after-lease — a server's journal keeps, per process, the tasks a call of run() is
 * working on, instead of the reference's one-call-at-a-time queue: a call that finds its task
 * claimed returns at once (the other call does the work), and a call that does not takes the task
 * lease first and claims the task only once it holds it. The lease cannot stop a second call of
 * the same process (its pid owns the lease already: it adopts it), so a concurrent call that looks
 * in the window between the first call's look and its claim — while the lease is being written —
 * runs the task beside the first. The claim after an await is the only defect.
 * Should break: single-flight (two sends of one key in flight at once), no-state-skip.
 */
import type { Env, JournalAdapter } from '../../../model/contract/contract.js';
import { recordsFromLog } from '../jsonlLog.js';
import { ReferenceRun } from '../reference.js';

/** Per process (its env), the tasks a call is working on. */
const claimed = new WeakMap<Env, Set<string>>();

class ClaimAfterLease extends ReferenceRun {
  protected override async acquireLease(): Promise<boolean> {
    const mine = claimed.get(this.env) ?? new Set<string>();
    claimed.set(this.env, mine);
    if (mine.has(this.task.id)) return false; // another call of this process is working on the task
    if (!(await super.acquireLease())) return false;
    mine.add(this.task.id); // the claim, after the awaits of taking the lease: the window
    return true;
  }

  override async execute(): Promise<void> {
    try {
      await super.execute();
    } finally {
      claimed.get(this.env)?.delete(this.task.id);
    }
  }
}

export const journal: JournalAdapter = {
  name: 'claim-after-lease',
  run: (env, task) => new ClaimAfterLease(env, task).execute(),
  inspect: (disk) => recordsFromLog(disk),
};
