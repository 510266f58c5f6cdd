/**
 * Mutant input-checked-once — the input a plan was made from is read back once, before the first
 * send of the incarnation, and trusted from then on: a source that changes between nodes (or
 * while the worker is paused) goes unnoticed, and the remaining nodes run on the old version.
 * Should break: version-change-pauses.
 */
import type { PublishOperation } from '../../../model/contract/contract.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class InputCheckedOnce extends ReferenceRun {
  private checked = false;

  protected override async inputStale(op: PublishOperation): Promise<string | undefined> {
    if (this.checked || !op.input) return undefined;
    this.checked = true;
    return super.inputStale(op);
  }
}

export const journal = journalFrom('input-checked-once', (env, task) => new InputCheckedOnce(env, task));
