/**
 * Mutant no-fsync — records are appended without an fsync, so they live in the page cache and a
 * machine crash takes them away. Should break: write-ahead (and truthful-outcome after a crash).
 */
import type { LogRecord } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class NoFsync extends ReferenceRun {
  protected override async record(record: LogRecord): Promise<void> {
    await this.log.appendUnsynced(record);
    this.remember(record);
  }
}

export const journal = journalFrom('no-fsync', (env, task) => new NoFsync(env, task));
