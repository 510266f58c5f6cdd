import { describe, expect, test } from 'vitest';
import { checkNoBlindRetry } from './noBlindRetry.js';
import { D1, post, run } from './fixtures.js';
import type { RequestEvidence } from '../evidence.js';

describe('no-blind-retry', () => {
  test('fires on a send under a key the task never gave', () => {
    expect(checkNoBlindRetry(run({ requests: [post(0, 'a', D1, 5), post(1, 'a-retry-1', D1, 9)] }))).toEqual([
      expect.objectContaining({ code: 'no-blind-retry', key: 'a-retry-1', step: 9 }),
    ]);
  });

  test('fires on a second send to a service that promises no replay', () => {
    const violations = checkNoBlindRetry(run({ service: { idempotencyMemory: 'volatile' }, requests: [post(0, 'a', D1, 5), post(1, 'a', D1, 9)] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'no-blind-retry', key: 'a', step: 9, actual: "request #1 is send number 2 of a: the service's idempotency memory is volatile: had it restarted after request #0, this re-send would have made a second effect" })]);
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

describe('no-blind-retry against a service without idempotency keys', () => {
  test('fires on a second send, and says the service made a second effect when it did', () => {
    const violations = checkNoBlindRetry(run({
      service: { idempotencyMemory: 'none' },
      requests: [post(0, 'a', D1, 5), post(1, 'a', D1, 9)],
      effects: [{ key: 'a', digest: D1, receipt: 'r1', atMs: 0, requestIndex: 0, seq: 5 }, { key: 'a', digest: D1, receipt: 'r2', atMs: 0, requestIndex: 1, seq: 9 }],
    }));
    expect(violations).toEqual([expect.objectContaining({ code: 'no-blind-retry', key: 'a', step: 9 })]);
    expect(violations[0]?.actual).toBe('request #1 is send number 2 of a: the service keeps no idempotency keys, so it commits again unless request #0 never committed (here it did: 2 effects)');
  });
});

describe('no-blind-retry after the service\'s effects said none', () => {
  const asked = (index: number, seq: number, found: number): RequestEvidence => ({ index, atMs: 0, method: 'GET', route: { kind: 'query', key: 'a', by: 'filter' }, status: 200, seq, readsEffects: { found } });

  test('a re-send after a query of the effects themselves found none of the key, or none of its intent, is no blind retry, even to a forgetful service', () => {
    expect(checkNoBlindRetry(run({ service: { idempotencyMemory: 'volatile' }, requests: [post(0, 'a', D1, 5), asked(1, 7, 0), post(2, 'a', D1, 9)] }))).toEqual([]);
    expect(checkNoBlindRetry(run({ service: { idempotencyMemory: 'volatile' }, requests: [post(0, 'a', D1, 5), { ...asked(1, 7, 1), readsEffects: { found: 1, digests: ['another'] } }, post(2, 'a', D1, 9)] }))).toEqual([]);
    expect(checkNoBlindRetry(run({ service: { idempotencyMemory: 'volatile' }, requests: [post(0, 'a', D1, 5), { ...asked(1, 7, 1), readsEffects: { found: 1, digests: [D1] } }, post(2, 'a', D1, 9)] })).map((v) => v.step)).toEqual([9]);
  });

  test('it still is when that query found one, came before the last send, or asked only the keys\' memory', () => {
    const fires = (requests: RequestEvidence[]) => checkNoBlindRetry(run({ service: { idempotencyMemory: 'volatile' }, requests })).map((v) => v.step);
    expect(fires([post(0, 'a', D1, 5), asked(1, 7, 1), post(2, 'a', D1, 9)])).toEqual([9]);
    expect(fires([asked(0, 3, 0), post(1, 'a', D1, 5), post(2, 'a', D1, 9)])).toEqual([9]);
    expect(fires([post(0, 'a', D1, 5), { ...asked(1, 7, 0), readsEffects: undefined }, post(2, 'a', D1, 9)])).toEqual([9]);
  });
});

describe('no-blind-retry under a contract whose service keeps a key for a time-to-live', () => {
  const at = (request: ReturnType<typeof post>, atMs: number) => ({ ...request, atMs });
  test('fires on a send again once the time-to-live ran out since the first send, holds before', () => {
    const late = run({ keyTtlMs: 60_000, requests: [at(post(0, 'a', D1, 5), 0), at(post(1, 'a', D1, 9), 61_000)] });
    expect(checkNoBlindRetry(late)).toEqual([expect.objectContaining({ code: 'no-blind-retry', key: 'a', step: 9, actual: 'request #1 is send number 2 of a, 61000 ms after request #0: had that one committed, the key was forgotten and this one commits again' })]);
    expect(checkNoBlindRetry(run({ keyTtlMs: 60_000, requests: [at(post(0, 'a', D1, 5), 0), at(post(1, 'a', D1, 9), 59_000)] }))).toEqual([]);
    expect(checkNoBlindRetry(run({ requests: [at(post(0, 'a', D1, 5), 0), at(post(1, 'a', D1, 9), 61_000)] }))).toEqual([]);
  });
});

test('no-blind-retry: a send again whose sender looked at the clock in time and was frozen on its way is the race no client wins', () => {
  const DAY = 86_400_000;
  const trace = Array.from({ length: 100 }, (_, seq) => ({ seq, actor: 'worker-0', op: 'fh.sync', detail: '', incarnation: 0, timeMs: seq < 40 ? 1 : DAY + 1_000 }));
  const send = (index: number, seq: number, atMs: number) => ({ ...post(index, 'a', D1, seq), atMs, sender: 'worker-0#0' });
  const looked = (at: number, timeMs: number) => trace.map((line) => (line.seq === at ? { ...line, op: 'Date.now', timeMs } : line));
  expect(checkNoBlindRetry(run({ keyTtlMs: DAY, trace: looked(35, 1), requests: [send(0, 10, 0), send(1, 60, DAY + 1_000)] }))).toEqual([]);
  expect(checkNoBlindRetry(run({ keyTtlMs: DAY, trace: looked(50, DAY + 1_000), requests: [send(0, 10, 0), send(1, 60, DAY + 1_000)] }))).toHaveLength(1);
  // No look at all: the send's own time.
  expect(checkNoBlindRetry(run({ keyTtlMs: DAY, trace, requests: [send(0, 10, 0), send(1, 60, DAY + 1_000)] }))).toHaveLength(1);
});
