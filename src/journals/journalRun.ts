/**
 * JournalRun: what every bundled journal incarnation shares — the task, the env, the settings, and
 * the append-only log with the records read back from it. Subclasses add the operations.
 */
import type { Env, Task } from '../../model/contract/contract.js';
import { hasCode, JsonlLog, type LogRecord } from './jsonlLog.js';

export interface ReferenceSettings {
  requestTimeoutMs: number;
  queryAttempts: number;
  queryBackoffMs: number;
  maxSends: number;
  lookupAttempts: number;
  editAttempts: number;
  leasePollMs: number;
  leaseAttempts: number;
}

export const REFERENCE_SETTINGS: ReferenceSettings = {
  requestTimeoutMs: 2000,
  queryAttempts: 6,
  queryBackoffMs: 200,
  maxSends: 3,
  lookupAttempts: 4,
  editAttempts: 3,
  leasePollMs: 100,
  leaseAttempts: 600,
};

export abstract class JournalRun {
  protected readonly log: JsonlLog;
  protected readonly records = new Map<string, LogRecord[]>();
  /** Waits on time this incarnation took (backoffs, a 503's wait, lease polls): a look that gates a send counts only if none came after it. */
  protected waits = 0;

  constructor(
    protected readonly env: Env,
    protected readonly task: Task,
    protected readonly settings: ReferenceSettings = REFERENCE_SETTINGS,
  ) {
    this.log = new JsonlLog(env);
  }

  /** Reads the log back (a torn last line is skipped) and makes it durable. */
  protected loadRecords(): Promise<LogRecord[]> {
    return this.log.open();
  }

  /** Every wait on time goes through here, so the gates of a send know whether one came since they were looked at. */
  protected async sleep(ms: number): Promise<void> {
    this.waits++;
    await this.env.clock.sleep(ms);
  }

  protected history(key: string): LogRecord[] {
    return this.records.get(key) ?? [];
  }

  protected last(key: string): LogRecord | undefined {
    return this.history(key).at(-1);
  }

  protected remember(record: LogRecord): void {
    const list = this.records.get(record.key) ?? [];
    list.push(record);
    this.records.set(record.key, list);
  }

  protected async record(record: LogRecord): Promise<void> {
    await this.log.append(record);
    this.remember(record);
  }

  // ---- publish ----

  protected async readText(path: string): Promise<string | undefined> {
    try {
      return await this.env.fs.readFile(path, 'utf8');
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return undefined;
      throw error;
    }
  }

  protected async removeIfPresent(path: string): Promise<void> {
    try {
      await this.env.fs.unlink(path);
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
    }
  }
}
