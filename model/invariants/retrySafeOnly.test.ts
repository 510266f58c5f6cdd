import { describe, expect, test } from 'vitest';
import { checkRetrySafeOnly } from './retrySafeOnly.js';
import { crash, D1, op, post, query, run } from './fixtures.js';

const atCrash = { a: op(['authorized', 'dispatched']) };

describe('retry-safe-only', () => {
  test('fires when a write left dispatched is re-sent after the crash without a query', () => {
    const violations = checkRetrySafeOnly(run({ crashes: [crash(20, atCrash)], requests: [post(0, 'a', D1, 10), post(1, 'a', D1, 30)] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'retry-safe-only', key: 'a', step: 30 })]);
    expect(violations[0]?.evidence).toMatchObject({ historyAtCrash: ['authorized', 'dispatched'] });
  });

  test('holds when the recovery queried first, or never re-sent', () => {
    expect(checkRetrySafeOnly(run({ crashes: [crash(20, atCrash)], requests: [post(0, 'a', D1, 10), query(1, 'a', 25), post(2, 'a', D1, 30)] }))).toEqual([]);
    expect(checkRetrySafeOnly(run({ crashes: [crash(20, atCrash)], requests: [post(0, 'a', D1, 10)] }))).toEqual([]);
  });

  test('holds for a retry-safe write', () => {
    expect(checkRetrySafeOnly(run({
      operations: [{ kind: 'publish', key: 'a', body: 'x', retrySafe: true }],
      crashes: [crash(20, atCrash)],
      requests: [post(0, 'a', D1, 10), post(1, 'a', D1, 30)],
    }))).toEqual([]);
  });
});
