/**
 * A journal on better-sqlite3 12 in rollback-journal mode with synchronous=EXTRA: every commit
 * fsyncs the journal, then the database, and — EXTRA's addition — the folder after the journal's
 * deletion, the commit point. Nothing committed is lost to a power loss.
 */
import { sqliteJournal } from './sqliteState.js';

export default sqliteJournal('better-sqlite3', { pragmas: ['journal_mode = DELETE', 'synchronous = EXTRA'] });
