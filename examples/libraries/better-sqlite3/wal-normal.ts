/**
 * A journal on better-sqlite3 12 in WAL mode with synchronous=NORMAL: a commit appends its frames
 * to the WAL and fsyncs nothing (the WAL is synced only at a checkpoint). SQLite's documentation
 * says so — a WAL/NORMAL database may lose its last transactions to a power loss — and the
 * "dispatched" record committed before the send is among them.
 */
import { sqliteJournal } from './sqliteState.js';

export default sqliteJournal('better-sqlite3-wal-normal', { pragmas: ['journal_mode = WAL', 'synchronous = NORMAL'] });
