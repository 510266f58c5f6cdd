import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { allowed, allowedFile, allowedFrom, firstSkip, OPERATION_STATES, TERMINAL_OPERATION_STATES, transitionTable } from './lifecycle.js';

describe('operation lifecycle', () => {
  test('the happy path and the recovery path are paths in the model', () => {
    expect(firstSkip('operation', ['authorized', 'dispatched', 'succeeded'])).toBeUndefined();
    expect(firstSkip('operation', ['authorized', 'dispatched', 'outcome_unknown', 'reconciling', 'succeeded'])).toBeUndefined();
    expect(firstSkip('operation', ['authorized', 'dispatched', 'reconciling', 'reconciling', 'dispatched', 'conflict'])).toBeUndefined();
  });

  test.each([
    [['dispatched', 'succeeded'], { index: 0, from: null, to: 'dispatched' }],
    [['authorized', 'succeeded'], { index: 1, from: 'authorized', to: 'succeeded' }],
    [['authorized', 'dispatched', 'outcome_unknown', 'succeeded'], { index: 3, from: 'outcome_unknown', to: 'succeeded' }],
    [['authorized', 'dispatched', 'dispatched'], { index: 2, from: 'dispatched', to: 'dispatched' }],
    [['authorized', 'dispatched', 'succeeded', 'dispatched'], { index: 3, from: 'succeeded', to: 'dispatched' }],
    [['authorized', 'started'], { index: 1, from: 'authorized', to: 'started' }],
  ])('%j leaves the model at %j', (history, skip) => {
    expect(firstSkip('operation', history)).toEqual(skip);
  });

  test('terminal states allow nothing after them', () => {
    for (const terminal of TERMINAL_OPERATION_STATES) for (const next of OPERATION_STATES) expect(allowed(terminal, next)).toBe(false);
  });
});

describe('file lifecycle', () => {
  test('read, conflict, rebuild, apply', () => {
    expect(firstSkip('file', ['read', 'conflict', 'read', 'applied'])).toBeUndefined();
    expect(firstSkip('file', ['applied'])).toEqual({ index: 0, from: null, to: 'applied' });
    expect(allowedFile('applied', 'read')).toBe(false);
  });
});

describe('the transition table docs/invariants.md shows', () => {
  test('is the model, row for row', () => {
    const docs = readFileSync(new URL('../docs/invariants.md', import.meta.url), 'utf8');
    expect(docs).toContain(transitionTable().join('\n'));
  });

  test('a violation of the model names the states it could have gone to', () => {
    expect(allowedFrom('operation', 'authorized')).toEqual(['dispatched', 'blocked', 'failed', 'cancelled']);
    expect(allowedFrom('operation', 'outcome_unknown', { retrySafe: true })).toEqual(['reconciling', 'dispatched']);
    expect(allowedFrom('file', 'applied')).toEqual([]);
  });
});
