/**
 * Mutant cleanup-deletes-journal — the cleanup deletes everything the task made once it is done,
 * the journal's log among them ("the task is finished, its working files can go"): the receipts
 * of the effects it committed are gone with it. Should break: evidence-retained.
 */
import { LOG_FILE, syncDir } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class CleanupDeletesJournal extends ReferenceRun {
  protected override async cleanupTemps(): Promise<void> {
    const finished = this.task.temp !== undefined && (this.cancelled || this.taskFinished());
    await super.cleanupTemps();
    if (!finished) return;
    await this.deleteTemp(LOG_FILE);
    await syncDir(this.env);
  }
}

export const journal = journalFrom('cleanup-deletes-journal', (env, task) => new CleanupDeletesJournal(env, task));
