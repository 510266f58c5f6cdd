/**
 * The journal every better-sqlite3 example shares: the reference protocol (stateJournal.ts) with
 * its records kept in a SQLite table, one row per key, as a Node service keeps a journal on
 * better-sqlite3 — opened with the pragmas a row names, each save one transaction, the rows read
 * back at the start of every incarnation. inspect() opens the same database read-only through
 * better-sqlite3: durasim serves it on the image being judged, and SQLite's own recovery decides
 * what it reads there, as at the next real open.
 */
import Database from 'better-sqlite3';
import { stateJournal, StateRun, type State, type Stored } from '../stateJournal.js';

export const FILE = 'journal.db';

/** How a journal opens its database: its pragmas (journal_mode, synchronous, busy_timeout) and the transaction its saves take. */
export interface SqliteSettings {
  pragmas: string[];
  /** BEGIN IMMEDIATE (the write lock taken at the start) or BEGIN DEFERRED (taken at the first write). */
  begin?: 'immediate' | 'deferred';
}

function rowsOf(db: Database.Database): State | undefined {
  const exists = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'records'").get();
  if (exists === undefined) return undefined;
  const state: State = {};
  for (const row of db.prepare('SELECT key, record FROM records ORDER BY key').all() as { key: string; record: string }[]) state[row.key] = JSON.parse(row.record) as Stored;
  return state;
}

/** A journal on better-sqlite3 with `settings`; `Run` may be a subclass of StateRun (a defect of its own). */
export function sqliteJournal(name: string, settings: SqliteSettings, Run: typeof StateRun = StateRun) {
  return stateJournal(
    name,
    () => {
      let db: Database.Database | undefined;
      const open = (): Database.Database => {
        if (db === undefined) {
          db = new Database(FILE);
          for (const pragma of settings.pragmas) db.pragma(pragma);
          db.exec('CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, record TEXT NOT NULL)');
        }
        return db;
      };
      return {
        load: async () => rowsOf(open()),
        save: async (state) => {
          const conn = open();
          const put = conn.prepare('INSERT INTO records (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record');
          const saveAll = conn.transaction((all: State) => {
            for (const [key, record] of Object.entries(all)) put.run(key, JSON.stringify(record));
          });
          (settings.begin === 'deferred' ? saveAll.deferred : saveAll.immediate)(state);
        },
      };
    },
    (disk) => {
      if (disk.readFile(FILE) === undefined) return undefined;
      const db = new Database(FILE, { readonly: true });
      try {
        return rowsOf(db);
      } finally {
        db.close();
      }
    },
    Run,
  );
}
