/**
 * A journal on better-sqlite3 12 (rollback journal, synchronous=EXTRA: every commit durable) that
 * records "dispatched" after the send instead of before it: a crash between the two leaves a
 * request the journal never knew it sent.
 */
import type { PublishOperation } from 'durasim';
import { StateRun } from '../stateJournal.js';
import { sqliteJournal } from './sqliteState.js';

class SendFirst extends StateRun {
  protected override async dispatch(op: PublishOperation, intent: ReturnType<StateRun['intent']>): ReturnType<StateRun['dispatch']> {
    const verdict = await this.post(op.key, intent);
    await this.record({ key: op.key, state: 'dispatched', digest: intent.digest });
    return verdict;
  }
}

export default sqliteJournal('better-sqlite3-send-first', { pragmas: ['journal_mode = DELETE', 'synchronous = EXTRA'] }, SendFirst);
