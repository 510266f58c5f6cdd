/**
 * Mutant projection-before-event — writes the projection before the event it folds: for a moment
 * (and for good, if it dies between the two) the checkpoint says the task got further than its
 * events show. Should break: projection-consistent.
 */
import type { LogRecord } from '../jsonlLog.js';
import { CoordinatedRun, coordinatedJournalFrom, projectionOf } from '../coordinated.js';

class ProjectionBeforeEvent extends CoordinatedRun {
  protected override async record(record: LogRecord): Promise<void> {
    const next = [...this.events, JSON.stringify({ ...record, writer: `worker-${this.env.pid}#${this.env.incarnation}` })];
    const written = await this.env.store.put(`${this.task.id}/projection`, projectionOf(next), { lease: { name: this.task.id, token: this.token } });
    if (written.ok) this.projectionVersion = written.version;
    return super.record(record);
  }

  protected override async project(): Promise<void> {}
}

export const journal = coordinatedJournalFrom('projection-before-event', (env, task) => new ProjectionBeforeEvent(env, task));
