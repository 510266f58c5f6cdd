/**
 * Mutant cleanup-by-prefix — the cleanup lists the shared temp folder and deletes every file whose
 * name starts with the task's id, instead of the files it registered: "task-1" also matches
 * task-10's uploads. Should break: cleanup-owned-only.
 */
import { journalFrom, ReferenceRun } from '../reference.js';

class CleanupByPrefix extends ReferenceRun {
  protected override async cleanupTemps(): Promise<void> {
    const temp = this.task.temp;
    if (temp === undefined || !(this.cancelled || this.taskFinished())) return;
    await this.loadTemps();
    let names: string[] = [];
    try {
      names = await this.env.fs.readdir(temp.dir);
    } catch {
      return; // no folder, nothing to clean
    }
    for (const name of names.filter((n) => n.startsWith(this.task.id))) await this.deleteTemp(`${temp.dir}/${name}`);
    await this.syncTempDir(temp.dir);
    for (const record of [...this.temps.values()].filter((r) => r.state === 'registered')) await this.recordTemp({ key: record.key, state: 'deleted', receipt: 'deleted by prefix' });
  }
}

export const journal = journalFrom('cleanup-by-prefix', (env, task) => new CleanupByPrefix(env, task));
