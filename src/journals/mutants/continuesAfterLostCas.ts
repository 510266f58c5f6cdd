/**
 * Mutant continues-after-lost-cas — when its compare-and-set on an event slot is refused (another
 * worker took the slot, or its lease was gone when the write landed), it takes the lease again,
 * reads the events and carries on in the same incarnation instead of stopping: a worker that lost
 * acts on what it decided before. Should break: cas-loser-stops.
 */
import type { LogRecord } from '../jsonlLog.js';
import { CoordinatedRun, coordinatedJournalFrom } from '../coordinated.js';

class ContinuesAfterLostCas extends CoordinatedRun {
  protected override async lostSlot(record: LogRecord, why: string): Promise<void> {
    if (!(await this.acquire())) throw new Error(why);
    this.records.clear();
    for (const event of await this.loadRecords()) this.remember(event);
    return this.record(record);
  }
}

export const journal = coordinatedJournalFrom('continues-after-lost-cas', (env, task) => new ContinuesAfterLostCas(env, task));
