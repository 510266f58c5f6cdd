/**
 * Mutant continues-after-lost-cas — when another worker has taken the event slot it wanted, it
 * reads the events again and carries on in the same incarnation instead of stopping: a worker
 * that lost the race acts again on what it decided from a stale view. Should break: cas-loser-stops.
 */
import type { LogRecord } from '../jsonlLog.js';
import { CoordinatedRun, coordinatedJournalFrom } from '../coordinated.js';

class ContinuesAfterLostCas extends CoordinatedRun {
  protected override async lostSlot(record: LogRecord): Promise<void> {
    this.records.clear();
    for (const event of await this.loadRecords()) this.remember(event);
    return this.record(record);
  }
}

export const journal = coordinatedJournalFrom('continues-after-lost-cas', (env, task) => new ContinuesAfterLostCas(env, task));
