import { describe, expect, test } from 'vitest';
import type { JudgeInput, Records } from './evidence.js';
import { judge } from './judge.js';
import { historyWords, wordsOf } from './stateWords.js';

const STATES = { queued: 'authorized', pending: 'authorized', sending: 'dispatched', timeout: 'outcome_unknown', retry_wait: { refines: 'outcome_unknown' }, checking: 'reconciling', paid: 'succeeded', failed: 'blocked' } as const;

/** A run whose only record is `records`' post-a, and one POST of it at #8 with these records at its arrival. */
function input(records: Records, states?: typeof STATES): JudgeInput {
  return {
    scenario: { task: { operations: [{ kind: 'publish', key: 'post-a', body: 'a' }] }, service: { idempotencyMemory: 'durable', query: true, resources: {} }, faults: [] },
    outcome: { kind: 'completed' },
    trace: Array.from({ length: 10 }, (_, seq) => ({ seq, actor: 'worker-0', incarnation: 0, op: 'fs.write', detail: '' })),
    effects: [],
    requests: [{ index: 0, atMs: 0, method: 'POST', route: { kind: 'publish', key: 'post-a' }, digest: 'd', status: 201, seq: 8, recordsAtArrival: records }],
    crashes: [],
    userEdits: [],
    final: { durable: records, visible: records, files: {} },
    observed: {},
    ...(states ? { states } : {}),
  };
}

describe('the words a message names a state with', () => {
  test('the model\'s, for a journal in the model\'s words: nothing changes', () => {
    const words = wordsOf(input({ 'post-a': { kind: 'operation', history: ['authorized'] } }));
    expect(words.state('post-a', 'dispatched')).toBe('dispatched');
    expect(words.history({ history: ['authorized', 'dispatched'] })).toBe('authorized, dispatched');
    expect(words.once(['a [b]', 'a [b]'])).toEqual(['a [b]', 'a [b]']);
  });

  test('the journal\'s own, the model\'s in brackets: the words its records used, else the mapping\'s, else the model\'s', () => {
    const records: Records = { 'post-a': { kind: 'operation', history: ['authorized', 'dispatched', 'outcome_unknown'], names: ['pending', 'sending', 'timeout/retry_wait'], digest: 'd' } };
    const words = wordsOf(input(records, STATES));
    expect(words.state('post-a', 'authorized')).toBe('pending [authorized]'); // the key said pending, not queued
    expect(words.state('post-b', 'authorized')).toBe('queued/pending [authorized]'); // no record: every word the mapping has for it
    expect(words.state('post-a', 'outcome_unknown')).toBe('timeout/retry_wait [outcome_unknown]');
    expect(words.state('post-a', 'cancelled')).toBe('cancelled'); // no word for it: the model's, which the journal would use as it is
    expect(words.state('post-a', 'failed')).toBe('[failed]'); // the journal's "failed" means blocked: the model's failed is bracketed
    expect(words.state('post-a', 'blocked')).toBe('failed [blocked]');
    expect(words.history(records['post-a'])).toBe('pending [authorized], sending [dispatched], timeout/retry_wait [outcome_unknown]');
    expect(historyWords(records['post-a'] as { history: string[] }, ' → ')).toBe('pending [authorized] → sending [dispatched] → timeout/retry_wait [outcome_unknown]');
  });

  test('a violation shows each bracket once, where its word first appears: write-ahead, word for word', () => {
    const [v] = judge(input({ 'post-a': { kind: 'operation', history: ['authorized'], names: ['queued'], digest: 'd' } }, STATES));
    expect(v?.expected).toBe('durable queued [authorized] and sending [dispatched] with digest d before request #0 arrived');
    expect(v?.actual).toBe('durable history [queued] with digest d');
    // The same records in the model's words say what they always said.
    const [plain] = judge(input({ 'post-a': { kind: 'operation', history: ['authorized'], digest: 'd' } }));
    expect(`${plain?.expected}; ${plain?.actual}`).toBe('durable authorized and dispatched with digest d before request #0 arrived; durable history [authorized] with digest d');
  });
});
