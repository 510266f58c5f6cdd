import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_STORE, StoreCore, type ScenarioStore, type StoreCallFaultKind, type StoreRequest } from './store.js';

function storeWith(config: Partial<ScenarioStore> = {}, faults: [number, StoreCallFaultKind][] = []) {
  const clock = { nowMs: 1_000 };
  const store = new StoreCore({ ...DEFAULT_STORE, ...config }, (index) => new Map(faults).get(index), () => clock.nowMs);
  const call = (request: StoreRequest) => store.call(request, 'worker-0#0', 0);
  return { store, clock, call };
}

describe('the shared store', () => {
  test('compare-and-set: ifVersion and ifAbsent; a failed condition changes nothing and names the current version', () => {
    const { call, store } = storeWith();
    expect(call({ op: 'put', key: 't', value: 'a', ifAbsent: true }).answer).toEqual({ ok: true, version: 1 });
    expect(call({ op: 'put', key: 't', value: 'b', ifAbsent: true }).answer).toEqual({ ok: false, reason: 'conflict', version: 1 });
    expect(call({ op: 'put', key: 't', value: 'b', ifVersion: 7 }).answer).toEqual({ ok: false, reason: 'conflict', version: 1 });
    expect(call({ op: 'put', key: 't', value: 'b', ifVersion: 1 }).answer).toEqual({ ok: true, version: 2 });
    expect(store.view().get('t')).toEqual({ key: 't', value: 'b', version: 2 });
    expect(store.calls.map((c) => c.applied)).toEqual([true, false, false, true]);
  });

  test('versions come from one counter: a deleted and recreated key never reuses one', () => {
    const { call } = storeWith();
    call({ op: 'put', key: 'a', value: '1' });
    call({ op: 'put', key: 'b', value: '1' });
    expect(call({ op: 'delete', key: 'a', ifVersion: 1 }).answer).toEqual({ ok: true, version: 1 });
    expect(call({ op: 'put', key: 'a', value: '2', ifAbsent: true }).answer).toEqual({ ok: true, version: 3 });
    expect(call({ op: 'list', prefix: '' }).answer).toEqual({ ok: true, entries: [{ key: 'a', value: '2', version: 3 }, { key: 'b', value: '1', version: 2 }] });
  });

  test("keys expire on the store's clock, which runs clockSkewMs ahead of the workers'", () => {
    const { call, clock, store } = storeWith({ clockSkewMs: 500 });
    expect(call({ op: 'now' }).answer).toEqual({ ok: true, nowMs: 1_500 });
    call({ op: 'put', key: 'k', value: 'v', ttlMs: 100 });
    clock.nowMs += 99;
    expect(store.view().get('k')?.value).toBe('v');
    clock.nowMs += 1;
    expect(store.view().get('k')).toBeUndefined();
    expect(call({ op: 'put', key: 'k', value: 'w', ifAbsent: true }).answer.ok).toBe(true);
  });

  test('leases: one holder at a time; fencing tokens only grow; renew and release need the current token before expiry; a forced release is audited', () => {
    const { call, clock, store } = storeWith();
    const first = call({ op: 'acquire', name: 'task-1', holder: 'a', ttlMs: 100 }).answer;
    expect(first).toMatchObject({ ok: true, lease: { holder: 'a', token: 1, expiresAtMs: 1_100, renewals: 0 } });
    expect(call({ op: 'acquire', name: 'task-1', holder: 'b', ttlMs: 100 }).answer).toMatchObject({ ok: false, reason: 'held', lease: { holder: 'a' } });
    clock.nowMs += 50;
    expect(call({ op: 'renew', name: 'task-1', token: 1, ttlMs: 100 }).answer).toMatchObject({ ok: true, lease: { expiresAtMs: 1_150, renewals: 1 } });
    clock.nowMs += 100; // exactly at expiry: the lease is gone
    expect(call({ op: 'renew', name: 'task-1', token: 1, ttlMs: 100 }).answer).toMatchObject({ ok: false, reason: 'expired' });
    const second = call({ op: 'acquire', name: 'task-1', holder: 'b', ttlMs: 100 }).answer;
    expect(second).toMatchObject({ ok: true, lease: { holder: 'b', token: 2 } });
    expect(call({ op: 'renew', name: 'task-1', token: 1, ttlMs: 100 }).answer).toMatchObject({ ok: false, reason: 'not-holder' });
    expect(call({ op: 'release', name: 'task-1', token: 1 }).answer).toMatchObject({ ok: false, reason: 'not-holder' });
    const forced = call({ op: 'release', name: 'task-1', force: true, reason: 'operator takes over' });
    expect(forced.answer).toMatchObject({ ok: true, lease: { holder: 'b' } });
    expect(forced.request).toMatchObject({ force: true, reason: 'operator takes over' });
    expect(store.calls.filter((c) => c.applied).map((c) => c.request.op)).toEqual(['acquire', 'renew', 'acquire', 'release']);
  });

  test('a write under a lease applies only while that lease holds that token, on the store clock', () => {
    const { call, clock } = storeWith();
    call({ op: 'acquire', name: 'l', holder: 'a', ttlMs: 100 });
    expect(call({ op: 'put', key: 'k', value: '1', ifAbsent: true, lease: { name: 'l', token: 1 } }).answer).toEqual({ ok: true, version: 1 });
    expect(call({ op: 'put', key: 'k', value: '2', lease: { name: 'l', token: 9 } }).answer).toEqual({ ok: false, reason: 'lease' });
    clock.nowMs += 100;
    expect(call({ op: 'put', key: 'k', value: '2', ifVersion: 1, lease: { name: 'l', token: 1 } }).answer).toEqual({ ok: false, reason: 'lease' });
    expect(call({ op: 'delete', key: 'k', lease: { name: 'l', token: 1 } }).answer).toEqual({ ok: false, reason: 'lease' });
  });

  test('a durable store keeps everything across a restart; a volatile one forgets keys, leases and its counters', () => {
    for (const memory of ['durable', 'volatile'] as const) {
      const { call, store } = storeWith({ memory });
      call({ op: 'put', key: 'k', value: 'v' });
      call({ op: 'acquire', name: 'l', holder: 'a', ttlMs: 1_000 });
      store.restart(5);
      const again = call({ op: 'put', key: 'k2', value: 'v' }).answer;
      const lease = call({ op: 'acquire', name: 'l', holder: 'b', ttlMs: 1_000 }).answer;
      if (memory === 'durable') {
        expect(store.view().get('k')?.value).toBe('v');
        expect(again).toEqual({ ok: true, version: 2 });
        expect(lease).toMatchObject({ ok: false, reason: 'held' });
      } else {
        expect(store.view().get('k')).toBeUndefined();
        expect(again).toEqual({ ok: true, version: 1 }); // a version reused: what a volatile store does
        expect(lease).toMatchObject({ ok: true, lease: { holder: 'b', token: 1 } }); // a fencing token reused
      }
      expect(store.restarts).toEqual([{ seq: 5, storeTimeMs: 1_000, memory }]);
    }
  });

  test('call faults: timeout-before-apply changes nothing, timeout-after-apply does; a stale read answers the value before the last write', () => {
    const { call, store } = storeWith({ consistency: 'stale-reads' }, [[1, 'timeout-before-apply'], [2, 'timeout-after-apply'], [4, 'stale-read']]);
    call({ op: 'put', key: 'k', value: 'v1' });
    expect(call({ op: 'put', key: 'k', value: 'lost', ifVersion: 1 })).toMatchObject({ applied: false, fault: 'timeout-before-apply' });
    expect(call({ op: 'put', key: 'k', value: 'v2', ifVersion: 1 })).toMatchObject({ applied: true, fault: 'timeout-after-apply' });
    expect(call({ op: 'get', key: 'k' }).answer).toEqual({ ok: true, entry: { key: 'k', value: 'v2', version: 2 } });
    expect(call({ op: 'get', key: 'k' }).answer).toEqual({ ok: true, entry: { key: 'k', value: 'v1', version: 1 } });
    expect(store.view().get('k')?.value).toBe('v2');
  });

  test('without faults it is a linearizable map: generated calls agree with a plain Map model', () => {
    const key = fc.constantFrom('a', 'b', 'c');
    const request = fc.oneof(
      fc.record({ op: fc.constant('get' as const), key }),
      fc.record({ op: fc.constant('put' as const), key, value: fc.string({ maxLength: 3 }) }),
      fc.record({ op: fc.constant('put' as const), key, value: fc.string({ maxLength: 3 }), ifVersion: fc.integer({ min: 0, max: 6 }) }),
      fc.record({ op: fc.constant('put' as const), key, value: fc.string({ maxLength: 3 }), ifAbsent: fc.constant(true) }),
      fc.record({ op: fc.constant('delete' as const), key }),
      fc.record({ op: fc.constant('delete' as const), key, ifVersion: fc.integer({ min: 0, max: 6 }) }),
    );
    fc.assert(
      fc.property(fc.array(request, { maxLength: 30 }), (requests) => {
        const { call } = storeWith();
        const model = new Map<string, { value: string; version: number }>();
        let revision = 0;
        for (const r of requests as StoreRequest[]) {
          const got = call(r).answer;
          if (r.op === 'get') {
            const held = model.get(r.key);
            expect(got).toEqual(held ? { ok: true, entry: { key: r.key, ...held } } : { ok: true });
          } else if (r.op === 'put') {
            const held = model.get(r.key);
            const allowed = !(r.ifAbsent && held) && (r.ifVersion === undefined || held?.version === r.ifVersion);
            if (allowed) model.set(r.key, { value: r.value, version: ++revision });
            expect(got.ok).toBe(allowed);
          } else if (r.op === 'delete') {
            const held = model.get(r.key);
            const allowed = held !== undefined && (r.ifVersion === undefined || held.version === r.ifVersion);
            if (allowed) model.delete(r.key);
            expect(got.ok).toBe(allowed);
          }
        }
      }),
      { numRuns: 300, seed: 12 },
    );
  });
});
