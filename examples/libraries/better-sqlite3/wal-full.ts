/**
 * A journal on better-sqlite3 12 in WAL mode with synchronous=FULL: every commit fsyncs the WAL
 * after appending its frames, so a committed record survives a power loss.
 */
import { sqliteJournal } from './sqliteState.js';

export default sqliteJournal('better-sqlite3-wal-full', { pragmas: ['journal_mode = WAL', 'synchronous = FULL'] });
