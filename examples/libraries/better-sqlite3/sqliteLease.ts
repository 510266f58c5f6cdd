/**
 * The task lease kept in the journal's SQLite database instead of a lock file: a one-row table
 * naming the worker that holds it. A worker checks the row and takes it in one transaction that
 * spans an await (it stamps the lease with the clock's time), and a worker that finds the lease
 * held, or the database busy, waits and tries again. With BEGIN IMMEDIATE the write lock is taken
 * before the check: a duplicate worker's BEGIN IMMEDIATE gets SQLITE_BUSY until the holder
 * commits. With a deferred BEGIN both check under a read lock and their upgrades to a write lock
 * meet: each gets SQLITE_BUSY (a busy timeout cannot help an upgrade), both roll back, and they
 * meet again (docs/sqlite.md).
 */
import Database from 'better-sqlite3';
import { StateRun } from '../stateJournal.js';
import { FILE } from './sqliteState.js';

const ATTEMPTS = 40;
const POLL_MS = 250;

/** A StateRun whose task lease is a row of the database, taken in a transaction begun with `begin`. */
export function leasedRun(begin: 'BEGIN IMMEDIATE' | 'BEGIN'): typeof StateRun {
  return class LeasedRun extends StateRun {
    private leaseDb(): Database.Database {
      const db = new Database(FILE);
      db.pragma('journal_mode = DELETE');
      db.pragma('synchronous = EXTRA');
      db.exec('CREATE TABLE IF NOT EXISTS lease (id INTEGER PRIMARY KEY CHECK (id = 1), owner INTEGER NOT NULL, at INTEGER NOT NULL)');
      return db;
    }

    protected override async acquireLease(): Promise<boolean> {
      const db = this.leaseDb();
      try {
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          try {
            db.exec(begin);
            const row = db.prepare('SELECT owner FROM lease WHERE id = 1').get() as { owner: number } | undefined;
            const now = await this.env.clock.now();
            if (row === undefined || row.owner === this.env.pid) {
              db.prepare('INSERT OR REPLACE INTO lease (id, owner, at) VALUES (1, ?, ?)').run(this.env.pid, now);
              db.exec('COMMIT');
              return true;
            }
            db.exec('ROLLBACK');
          } catch (error) {
            if (!String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY')) throw error;
            if (db.inTransaction) db.exec('ROLLBACK');
          }
          await this.env.clock.sleep(POLL_MS);
        }
        return false;
      } finally {
        db.close();
      }
    }

    /** The reference's run, its lease a row: given back by deleting it. */
    override async execute(): Promise<void> {
      if (!(await this.acquireLease())) return;
      for (const record of await this.loadRecords()) this.remember(record);
      for (const op of this.task.operations) if (!this.paused() && !(await this.cancelSeen())) await this.operation(op);
      if (this.cancelled) await this.settleAfterCancel();
      await this.cleanupTemps();
      await this.tempLog.close();
      await this.log.close();
      const db = this.leaseDb();
      db.prepare('DELETE FROM lease WHERE id = 1 AND owner = ?').run(this.env.pid);
      db.close();
    }
  };
}
