/**
 * Mutant cancel-checked-at-start — the cancel is looked at once, when the worker starts, and never
 * again: a cancel that lands while the task runs is noticed only by the next restart, and every
 * node until then is claimed and sent as if nothing happened. Should break: no-effect-after-cancel.
 */
import { journalFrom, ReferenceRun } from '../reference.js';

class CancelCheckedAtStart extends ReferenceRun {
  private looked = false;

  protected override async cancelSeen(): Promise<boolean> {
    if (this.looked) return this.cancelled;
    this.looked = true;
    return super.cancelSeen();
  }
}

export const journal = journalFrom('cancel-checked-at-start', (env, task) => new CancelCheckedAtStart(env, task));
