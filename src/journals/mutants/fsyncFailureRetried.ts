/**
 * Mutant fsync-failure-retried — when an fsync of the log fails, it is simply tried again; on Linux
 * the second fsync succeeds, because the failed one already marked the unwritten pages clean, so
 * the record is believed durable while it exists only in the page cache (PostgreSQL's
 * "fsyncgate", 2018). Should break: write-ahead (the request leaves with its record not durable).
 */
import type { FileHandle } from '../../../model/contract/contract.js';
import { LOG_FILE, type LogRecord } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class FsyncFailureRetried extends ReferenceRun {
  private handle: FileHandle | undefined;

  protected override async record(record: LogRecord): Promise<void> {
    this.handle ??= await this.env.fs.open(LOG_FILE, 'a');
    await this.handle.appendFile(`${JSON.stringify({ ...record, pid: this.env.pid, incarnation: this.env.incarnation })}\n`);
    try {
      await this.handle.sync();
    } catch {
      await this.handle.sync(); // a transient error: try once more
    }
    this.remember(record);
  }
}

export const journal = journalFrom('fsync-failure-retried', (env, task) => new FsyncFailureRetried(env, task));
