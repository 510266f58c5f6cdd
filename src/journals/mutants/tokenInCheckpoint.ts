/**
 * Mutant token-in-checkpoint — the intent record keeps the request as it will be sent, headers and
 * all, "so that recovery can replay it exactly": the task's access token lands in the journal on
 * the disk, where it outlives the process and anyone who reads the folder can use it. Should
 * break: no-secret-persisted.
 */
import type { LogRecord } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class TokenInCheckpoint extends ReferenceRun {
  protected override async record(record: LogRecord): Promise<void> {
    const request = record.state === 'authorized' ? { request: { headers: this.credentials() } } : {};
    return super.record({ ...record, ...request } as LogRecord);
  }
}

export const journal = journalFrom('token-in-checkpoint', (env, task) => new TokenInCheckpoint(env, task));
