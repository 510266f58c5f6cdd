/**
 * A journal on node:sqlite in WAL mode with synchronous=NORMAL: a commit appends its frames to the
 * WAL and fsyncs nothing (the WAL is synced only at a checkpoint), so the "dispatched" record
 * committed before the send is in the page cache when the request leaves, and a power loss takes
 * it. (Node's SQLite keeps synchronous=FULL in WAL mode unless told otherwise — better-sqlite3
 * lowers it to NORMAL — so this journal asks for NORMAL.)
 */
import { nodeSqliteJournal } from './nodeSqliteState.js';

export default nodeSqliteJournal('node-sqlite-wal-normal', ['journal_mode = WAL', 'synchronous = NORMAL']);
