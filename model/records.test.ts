import { describe, expect, test } from 'vitest';
import { normalizeRecords } from './records.js';

describe('normalizeRecords', () => {
  test('a current state becomes a one-state history marked reported: state; a history stays as recorded', () => {
    expect(normalizeRecords({ a: { kind: 'operation', state: 'dispatched', digest: 'd' }, b: { kind: 'operation', history: ['authorized', 'dispatched'] } })).toEqual({
      records: { a: { kind: 'operation', history: ['dispatched'], reported: 'state', digest: 'd' }, b: { kind: 'operation', history: ['authorized', 'dispatched'] } },
      problems: [],
    });
    expect(normalizeRecords({ e: { kind: 'file', path: 'n.md', state: 'applied' } }).records.e).toEqual({ kind: 'file', path: 'n.md', history: ['applied'], preserved: [], reported: 'state' });
  });

  test('says what is wrong with a record instead of judging on it', () => {
    expect(normalizeRecords({ a: { kind: 'operation' } }).problems).toEqual(['the record of "a" has neither a state nor a history']);
    expect(normalizeRecords({ a: { kind: 'operation', history: 'succeeded' } }).problems).toEqual(['the record of "a" has a history that is not a list of state names']);
    expect(normalizeRecords({ a: { kind: 'op', state: 'succeeded' } }).problems).toEqual(["the record of \"a\" is not { kind: 'operation' | 'file', … }"]);
    expect(normalizeRecords({ a: { kind: 'operation', state: 'succeeded', history: ['authorized'] } }).problems).toEqual(['the record of "a" says its state is succeeded but its history ends at authorized']);
    expect(normalizeRecords([1]).problems).toEqual(['inspect() returned an array, not an object of records by key']);
  });

  test('refuses a record the judge would blame the wrong thing for: an unknown state, a file without its path, a digest that is not a string', () => {
    const refused = (record: unknown) => normalizeRecords({ k: record });
    expect(refused({ kind: 'operation', history: ['authorized', 'sent'] })).toEqual({ records: {}, problems: ['the record of "k" has the state "sent", which is not an operation state (authorized, dispatched, succeeded, conflict, outcome_unknown, reconciling, blocked, failed, cancelled)'] });
    expect(refused({ kind: 'file', path: 'n.md', state: 'succeeded' }).problems).toEqual(['the record of "k" has the state "succeeded", which is not a file state (read, conflict, applied)']);
    for (const path of ['', '/work/n.md', '../n.md', undefined]) {
      expect(refused({ kind: 'file', path, state: 'applied' }), String(path)).toEqual({ records: {}, problems: [`the record of "k" has the path ${JSON.stringify(path)}: a file record names the file it edits, relative to the work folder`] });
    }
    expect(refused({ kind: 'file', path: 'n.md', state: 'applied', preserved: 'x' }).problems).toEqual(["the record of \"k\" has a preserved that is not a list of the user's texts"]);
    expect(refused({ kind: 'operation', state: 'succeeded', digest: 42 }).problems).toEqual(['the record of "k" has a digest that is not a string (42)']);
    expect(refused({ kind: 'operation', state: 'succeeded', receipt: null }).problems).toEqual([]);
  });
});

describe('normalizeRecords, in the journal\'s own words', () => {
  const STATES = { queued: 'authorized', sending: 'dispatched', timeout: 'outcome_unknown', no_answer: 'outcome_unknown', retry_wait: { refines: 'outcome_unknown' }, checking: 'reconciling', paid: 'succeeded', replayed: 'succeeded', user_edited: 'conflict' } as const;

  test('reads each word as the model\'s state, keeps the words beside them, and folds a sub-state into the state it refines', () => {
    const { records, problems } = normalizeRecords({
      a: { kind: 'operation', history: ['queued', 'sending', 'timeout', 'retry_wait', 'timeout', 'retry_wait', 'sending', 'no_answer', 'checking', 'replayed'], digest: 'd' },
      b: { kind: 'operation', state: 'retry_wait' },
      // A plain word repeated is a repeat in the model too; the model's own names pass as they are.
      c: { kind: 'operation', history: ['queued', 'sending', 'timeout', 'no_answer', 'failed'] },
      f: { kind: 'file', path: 'n.md', history: ['read', 'user_edited'] },
    }, STATES);
    expect(problems).toEqual([]);
    expect(records.a).toEqual({ kind: 'operation', history: ['authorized', 'dispatched', 'outcome_unknown', 'dispatched', 'outcome_unknown', 'reconciling', 'succeeded'], names: ['queued', 'sending', 'timeout/retry_wait', 'sending', 'no_answer', 'checking', 'replayed'], digest: 'd' });
    expect(records.b).toEqual({ kind: 'operation', history: ['outcome_unknown'], names: ['retry_wait'], reported: 'state' });
    expect(records.c?.history).toEqual(['authorized', 'dispatched', 'outcome_unknown', 'outcome_unknown', 'failed']);
    expect(records.f).toEqual({ kind: 'file', path: 'n.md', history: ['read', 'conflict'], names: ['read', 'user_edited'], preserved: [] });
  });

  test('refuses a word neither mapped nor the model\'s, with both lists, and a word mapped to a state of the other kind', () => {
    expect(normalizeRecords({ k: { kind: 'operation', history: ['queued', 'retrying'] } }, STATES).problems).toEqual([
      'the record of "k" has the state "retrying", which is neither one of the journal\'s states (queued, sending, timeout, no_answer, retry_wait, checking, paid, replayed, user_edited: its adapter\'s states) nor an operation state of the model (authorized, dispatched, succeeded, conflict, outcome_unknown, reconciling, blocked, failed, cancelled)',
    ]);
    expect(normalizeRecords({ k: { kind: 'file', path: 'n.md', state: 'sending' } }, STATES).problems).toEqual([
      'the record of "k" has the state "sending", which its adapter\'s states map to dispatched, not a file state (read, conflict, applied)',
    ]);
  });
});
