/**
 * A journal on node:sqlite (Node 22.5 and later) in rollback-journal mode with synchronous=EXTRA:
 * every commit fsyncs the journal, then the database, and the folder after the journal's deletion,
 * the commit point. Nothing committed is lost to a power loss. (Node's default, synchronous=FULL,
 * leaves that deletion unsynced: a power loss right after a commit may roll it back.)
 */
import { nodeSqliteJournal } from './nodeSqliteState.js';

export default nodeSqliteJournal('node-sqlite', ['journal_mode = DELETE', 'synchronous = EXTRA']);
