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
});
