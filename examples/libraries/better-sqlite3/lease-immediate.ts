/**
 * A journal on better-sqlite3 12 whose task lease is a row of its database (sqliteLease.ts), taken
 * in a BEGIN IMMEDIATE transaction: a duplicate worker waits until the holder commits.
 */
import { sqliteJournal } from './sqliteState.js';
import { leasedRun } from './sqliteLease.js';

export default sqliteJournal('better-sqlite3-lease-immediate', { pragmas: ['journal_mode = DELETE', 'synchronous = EXTRA'] }, leasedRun('BEGIN IMMEDIATE'));
