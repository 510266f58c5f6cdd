/**
 * The journal of lease-immediate.ts with a deferred BEGIN: two workers both check the lease under a
 * read lock, and their upgrades to the write lock meet.
 */
import { sqliteJournal } from './sqliteState.js';
import { leasedRun } from './sqliteLease.js';

export default sqliteJournal('better-sqlite3-no-immediate', { pragmas: ['journal_mode = DELETE', 'synchronous = EXTRA'] }, leasedRun('BEGIN'));
