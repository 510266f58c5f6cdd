import { describe, expect, test } from 'vitest';
import { checkRetrySafeOnly } from './retrySafeOnly.js';
import { crash, D1, op, post, query, run } from './fixtures.js';

const atCrash = { a: op(['authorized', 'dispatched']) };

describe('retry-safe-only', () => {
  test('fires when a write left dispatched is re-sent after the crash without a query', () => {
    const violations = checkRetrySafeOnly(run({ crashes: [crash(20, atCrash)], requests: [post(0, 'a', D1, 10), post(1, 'a', D1, 30)] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'retry-safe-only', key: 'a', step: 30 })]);
    expect(violations[0]?.evidence).toMatchObject({ historyAtCrash: ['authorized', 'dispatched'] });
    expect(violations[0]?.actual).toBe('request #1 re-sent it without asking the service; this service kept the key, but one that forgets keys (or keeps none) would have committed it twice had the first send landed');
  });

  test('says the service committed it twice when it did', () => {
    const effects = [{ key: 'a', digest: D1, receipt: 'r1', atMs: 0, requestIndex: 0, seq: 10 }, { key: 'a', digest: D1, receipt: 'r2', atMs: 0, requestIndex: 1, seq: 30 }];
    const violations = checkRetrySafeOnly(run({ service: { idempotencyMemory: 'none' }, effects, crashes: [crash(20, atCrash)], requests: [post(0, 'a', D1, 10), post(1, 'a', D1, 30)] }));
    expect(violations[0]?.actual).toBe('request #1 re-sent it without asking the service; the service committed it 2 times');
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

  test('judges the incarnation that recovers from the crash, never a worker that survived it', () => {
    // worker-0#0 starts at #0; a duplicate worker-1#0 is killed at #20 (a process kill spares worker-0#0);
    // worker-0#0 then sends post #0 for the first time: no re-send. worker-0#1 (started at #40) re-sends blindly.
    const trace = Array.from({ length: 100 }, (_, seq) => ({ seq, actor: 'worker-0', op: 'clock.now', detail: '' }));
    trace[0] = { seq: 0, actor: 'supervisor', op: 'start', detail: 'worker-0#0' };
    trace[40] = { seq: 40, actor: 'supervisor', op: 'start', detail: 'worker-0#1' };
    const survivor = { ...post(0, 'a', D1, 30), sender: 'worker-0#0' };
    const crashed = crash(20, atCrash, atCrash, ['worker-0#0']);
    expect(checkRetrySafeOnly(run({ trace, crashes: [crashed], requests: [survivor] }))).toEqual([]);
    const recovering = { ...post(1, 'a', D1, 50), sender: 'worker-0#1' };
    const violations = checkRetrySafeOnly(run({ trace, crashes: [crashed], requests: [recovering] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'retry-safe-only', key: 'a', step: 50 })]);
    // No send of the key had left before it: the wording does not call it a re-send.
    expect(violations[0]?.actual).toBe('request #1 from worker-0#1, which started after that crash, sent it without asking the service (no earlier send had left, which the journal could not know); this service kept the key, but one that forgets keys (or keeps none) would have committed it twice had the first send landed');
  });
});

describe('retry-safe-only under a service contract', () => {
  test('a service whose only query takes the receipt offers none for a send in doubt: a send again to it, which keeps the key, is the way to learn', () => {
    const resend = { crashes: [crash(20, atCrash)], requests: [post(0, 'a', D1, 10), post(1, 'a', D1, 30)] };
    expect(checkRetrySafeOnly(run({ ...resend, keyQuery: false }))).toEqual([]);
    // It must still keep the key: one that forgets keys gets no blind re-send either way.
    expect(checkRetrySafeOnly(run({ ...resend, keyQuery: false, service: { idempotencyMemory: 'volatile' } }))).toHaveLength(1);
    // A contract with a query by the key (or a request's field) is asked first, as durasim's own protocol is.
    expect(checkRetrySafeOnly(run({ ...resend, keyQuery: true }))).toHaveLength(1);
  });

  test('a contract that promises to keep its keys (durable, or for a time-to-live) is asked by a send again under the key: no blind re-send, query or none', () => {
    const resend = { crashes: [crash(20, atCrash)], requests: [post(0, 'a', D1, 10), post(1, 'a', D1, 30)] };
    const contract = (memory: string | { ttlMs: number }) => ({ queries: [{ by: 'key' }], memory });
    for (const memory of ['durable', { ttlMs: 86_400_000 }]) {
      expect(checkRetrySafeOnly(run({ ...resend, keyQuery: true, service: { contract: contract(memory) } }))).toEqual([]);
      expect(checkRetrySafeOnly(run({ ...resend, keyQuery: false, service: { contract: contract(memory) } }))).toEqual([]);
    }
    // A contract that says its service forgets keys at a restart, or keeps none, promises nothing: the send again is blind.
    for (const memory of ['volatile', 'none'] as const) {
      expect(checkRetrySafeOnly(run({ ...resend, keyQuery: true, service: { idempotencyMemory: memory, contract: contract(memory) } }))).toHaveLength(1);
    }
    // A scenario saved with a forgetting service under a promising contract (drawn before 2026-12-07) keeps its verdict.
    expect(checkRetrySafeOnly(run({ ...resend, keyQuery: true, service: { idempotencyMemory: 'volatile', contract: contract('durable') } }))).toHaveLength(1);
  });
});
