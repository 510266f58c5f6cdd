import { describe, expect, test } from 'vitest';
import { checkCompletedReplayed } from './completedReplayed.js';
import { D1, op, post, run } from './fixtures.js';

describe('completed-replayed', () => {
  test('fires on a request made after succeeded was durable', () => {
    const violations = checkCompletedReplayed(run({ requests: [post(3, 'a', D1, 50, { a: op(['authorized', 'dispatched', 'succeeded']) })] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'completed-replayed', key: 'a', step: 50 })]);
  });

  test('fires on a lookup read again after it succeeded', () => {
    const read = { index: 4, atMs: 0, method: 'GET', route: { kind: 'resource', name: 'config' }, status: 200, seq: 60, recordsAtArrival: { l: op(['authorized', 'dispatched', 'succeeded']) } };
    expect(checkCompletedReplayed(run({ operations: [{ kind: 'lookup', key: 'l', resource: 'config' }], requests: [read] }))).toEqual([
      expect.objectContaining({ code: 'completed-replayed', key: 'l' }),
    ]);
  });

  test('holds when the request came before succeeded', () => {
    expect(checkCompletedReplayed(run({ requests: [post(0, 'a', D1, 5, { a: op(['authorized', 'dispatched']) })] }))).toEqual([]);
  });
});
