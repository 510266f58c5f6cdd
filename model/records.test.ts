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
