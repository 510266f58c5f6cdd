/**
 * A journal on better-sqlite3 12 with synchronous=OFF: SQLite never fsyncs, so every commit is in
 * the page cache only when the request leaves.
 */
import { sqliteJournal } from './sqliteState.js';

export default sqliteJournal('better-sqlite3-sync-off', { pragmas: ['journal_mode = DELETE', 'synchronous = OFF'] });
