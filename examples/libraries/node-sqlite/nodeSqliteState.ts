/**
 * The journal the node:sqlite examples share: the reference protocol (../stateJournal.ts) with its
 * records kept in a SQLite table through Node's own node:sqlite (Node 22.5 and later), one row per
 * key, each save one transaction (BEGIN IMMEDIATE … COMMIT), as better-sqlite3's examples keep it
 * (../better-sqlite3/sqliteState.ts). inspect() opens the same database read-only: durasim serves
 * it on the image being judged, and SQLite's own recovery decides what it reads there.
 */
import { DatabaseSync } from 'node:sqlite';
import { stateJournal, type State, type Stored } from '../stateJournal.js';

export const FILE = 'journal.db';

function rowsOf(db: DatabaseSync): State | undefined {
  if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'records'").get() === undefined) return undefined;
  const state: State = {};
  for (const row of db.prepare('SELECT key, record FROM records ORDER BY key').all() as { key: string; record: string }[]) state[row.key] = JSON.parse(row.record) as Stored;
  return state;
}

/** A journal on node:sqlite opened with `pragmas` (journal_mode, synchronous). */
export function nodeSqliteJournal(name: string, pragmas: string[]) {
  return stateJournal(
    name,
    () => {
      let db: DatabaseSync | undefined;
      const open = (): DatabaseSync => {
        if (db === undefined) {
          db = new DatabaseSync(FILE);
          for (const pragma of pragmas) db.exec(`PRAGMA ${pragma}`);
          db.exec('CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, record TEXT NOT NULL)');
        }
        return db;
      };
      return {
        load: async () => rowsOf(open()),
        save: async (state) => {
          const conn = open();
          const put = conn.prepare('INSERT INTO records (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record');
          conn.exec('BEGIN IMMEDIATE');
          try {
            for (const [key, record] of Object.entries(state)) put.run(key, JSON.stringify(record));
            conn.exec('COMMIT');
          } catch (error) {
            if (conn.isTransaction) conn.exec('ROLLBACK');
            throw error;
          }
        },
      };
    },
    (disk) => {
      if (disk.readFile(FILE) === undefined) return undefined;
      const db = new DatabaseSync(FILE, { readOnly: true });
      try {
        return rowsOf(db);
      } finally {
        db.close();
      }
    },
  );
}
