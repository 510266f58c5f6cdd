/**
 * Mutant unsynced-delivery — the candidate is written and linked into place, but neither the
 * candidate's bytes nor the directory are fsynced before applied is recorded durably. After a
 * machine crash (or on the durable image at the end) the record says applied while the file holds
 * its old text, or nothing. Should break: file-truth.
 */
import { journalFrom, ReferenceRun } from '../reference.js';

class UnsyncedDelivery extends ReferenceRun {
  protected override async makeDurable(): Promise<void> {}
}

export const journal = journalFrom('unsynced-delivery', (env, task) => new UnsyncedDelivery(env, task));
