import { describe, expect, test } from 'vitest';
import { parseLog, recordsFromLog } from './jsonlLog.js';

const view = (text: string | undefined) => ({ dir: '/work', readFile: () => text, readdir: () => [] });

describe('parseLog', () => {
  test('skips a torn last line and a garbled middle line', () => {
    const text = '{"key":"a","state":"authorized"}\n{"key":"a","sta\n{"key":"a","state":"dispatched"}\n{"key":"a","state":"succ';
    expect(parseLog(text).map((r) => r.state)).toEqual(['authorized', 'dispatched']);
  });
});

describe('recordsFromLog', () => {
  test('maps operation and file records onto the model vocabulary', () => {
    const log = [
      { key: 'a', state: 'authorized', digest: 'd1', body: 'x' },
      { key: 'a', state: 'dispatched', digest: 'd1' },
      { key: 'a', state: 'succeeded', digest: 'd1', receipt: 'r1' },
      { key: 'e', state: 'read', path: 'notes.md' },
      { key: 'e', state: 'conflict', path: 'notes.md', preserved: 'user text' },
      { key: 'e', state: 'applied', path: 'notes.md' },
    ].map((r) => JSON.stringify(r)).join('\n');
    expect(recordsFromLog(view(`${log}\n`))).toEqual({
      a: { kind: 'operation', history: ['authorized', 'dispatched', 'succeeded'], digest: 'd1', receipt: 'r1' },
      e: { kind: 'file', path: 'notes.md', history: ['read', 'conflict', 'applied'], preserved: ['user text'] },
    });
  });

  test('a missing log means no records', () => {
    expect(recordsFromLog(view(undefined))).toEqual({});
  });
});
