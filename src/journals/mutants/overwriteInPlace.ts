/**
 * Mutant overwrite-in-place — the log is rewritten whole, in place, at every record (opened with
 * 'w', written, fsynced) instead of appended to or replaced by rename. A machine crash between the
 * write and its fsync can leave the file empty on a real file system (truncate-and-write), and every
 * record with it. Should break: no-state-skip, truthful-outcome (records that vanish).
 */
import { LOG_FILE, type LogRecord } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class OverwriteInPlace extends ReferenceRun {
  private lines: string[] = [];

  protected override async loadRecords(): Promise<LogRecord[]> {
    const records = await super.loadRecords();
    this.lines = records.map((r) => JSON.stringify(r));
    return records;
  }

  protected override async record(record: LogRecord): Promise<void> {
    this.lines.push(JSON.stringify({ ...record, pid: this.env.pid, incarnation: this.env.incarnation }));
    const handle = await this.env.fs.open(LOG_FILE, 'w');
    await handle.writeFile(`${this.lines.join('\n')}\n`);
    await handle.sync();
    await handle.close();
    this.remember(record);
  }
}

export const journal = journalFrom('overwrite-in-place', (env, task) => new OverwriteInPlace(env, task));
