/**
 * Mutant repairs-projection — a projection that does not fold the events is rewritten from the
 * events and the task goes on ("self-healing"), instead of quarantined: whatever wrote that
 * projection (an older build, a hand edit) is never looked at, and the worker advances a task whose
 * checkpoint someone else changed. Should break: projection-consistent.
 */
import type { LogRecord } from '../jsonlLog.js';
import { CoordinatedRun, coordinatedJournalFrom } from '../coordinated.js';

class RepairsProjection extends CoordinatedRun {
  protected override async loadRecords(): Promise<LogRecord[]> {
    const events = await this.patiently('a list of the events', () => this.env.store.list(`${this.task.id}/events/`));
    const projection = await this.patiently('a read of the projection', () => this.env.store.get(`${this.task.id}/projection`));
    this.next = events.length;
    this.events = events.map((e) => e.value);
    // Whatever the projection says, the events win: the next project() rewrites it over its version.
    this.projectionVersion = projection?.version;
    return events.map((e) => JSON.parse(e.value) as LogRecord);
  }
}

export const journal = coordinatedJournalFrom('repairs-projection', (env, task) => new RepairsProjection(env, task));
