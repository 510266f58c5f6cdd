/**
 * Mutant short-write-ignored — a record whose append fails part-way (ENOSPC or EIO after a short
 * write) is logged as a warning and the run goes on, as if the log were best-effort: the record
 * is not on disk, or only a prefix of it is. Should break: write-ahead (the request leaves with no
 * durable record), no-state-skip.
 */
import { hasCode, type LogRecord } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class ShortWriteIgnored extends ReferenceRun {
  protected override async record(record: LogRecord): Promise<void> {
    try {
      await this.log.append(record);
    } catch (error) {
      if (!hasCode(error, 'ENOSPC') && !hasCode(error, 'EIO')) throw error;
      // The disk is full or failing: carry on; the log catches up with the next record.
    }
    this.remember(record);
  }
}

export const journal = journalFrom('short-write-ignored', (env, task) => new ShortWriteIgnored(env, task));
