import { describe, expect, test } from 'vitest';
import { checkNoBlindRetry } from './noBlindRetry.js';
import { D1, post, run } from './fixtures.js';

describe('no-blind-retry', () => {
  test('fires on a send under a key the task never gave', () => {
    expect(checkNoBlindRetry(run({ requests: [post(0, 'a', D1, 5), post(1, 'a-retry-1', D1, 9)] }))).toEqual([
      expect.objectContaining({ code: 'no-blind-retry', key: 'a-retry-1', step: 9 }),
    ]);
  });

  test('fires on a second send to a service that promises no replay', () => {
    const violations = checkNoBlindRetry(run({ service: { idempotencyMemory: 'volatile' }, requests: [post(0, 'a', D1, 5), post(1, 'a', D1, 9)] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'no-blind-retry', key: 'a', step: 9, actual: 'request #1 is send number 2 of a' })]);
  });

  test('holds for a re-send the service promises to replay, or of a retry-safe write', () => {
    expect(checkNoBlindRetry(run({ requests: [post(0, 'a', D1, 5), post(1, 'a', D1, 9)] }))).toEqual([]);
    expect(checkNoBlindRetry(run({
      operations: [{ kind: 'publish', key: 'a', body: 'x', retrySafe: true }],
      service: { idempotencyMemory: 'volatile' },
      requests: [post(0, 'a', D1, 5), post(1, 'a', D1, 9)],
    }))).toEqual([]);
  });
});
