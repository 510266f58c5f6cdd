import { describe, expect, test } from 'vitest';
import { byCause, CAUSAL_ORDER } from './causes.js';
import { INVARIANT_CODES, type Violation } from './violation.js';

const v = (code: Violation['code'], key: string, step: number): Violation => ({ code, key, step, expected: '', actual: '', evidence: {} });

describe('byCause', () => {
  test('ranks every invariant', () => {
    expect([...CAUSAL_ORDER].sort()).toEqual([...INVARIANT_CODES].sort());
  });

  test('groups by key, the root cause first even when a derived violation shows earlier', () => {
    const groups = byCause([v('write-ahead', 'a-retry-1', 9), v('one-effect-per-key', 'a', 12), v('no-blind-retry', 'a-retry-1', 9), v('retry-safe-only', 'a', 10)]);
    expect(groups.map((g) => [g.key, g.root.code, g.derived.map((d) => d.code)])).toEqual([
      ['a-retry-1', 'no-blind-retry', ['write-ahead']],
      ['a', 'retry-safe-only', ['one-effect-per-key']],
    ]);
  });
});
