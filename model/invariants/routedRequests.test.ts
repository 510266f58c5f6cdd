/** routed-requests and fault-free-effects fire on runs built to break them, and stay quiet on their correct counterparts. */
import { describe, expect, test } from 'vitest';
import type { RequestEvidence } from '../evidence.js';
import { checkFaultFreeEffects } from './faultFreeEffects.js';
import { checkRoutedRequests } from './routedRequests.js';
import { effect, op, post, run } from './fixtures.js';

const unrouted = (index: number, seq: number, path: string): RequestEvidence => ({ index, atMs: 0, method: 'POST', route: { kind: 'unknown' }, status: 404, seq, sender: 'worker-0#0', path });

describe('routed-requests', () => {
  test('fires once per method and path no route takes, at its first request, counting them', () => {
    const v = checkRoutedRequests(run({ requests: [unrouted(0, 10, '/payouts'), unrouted(1, 20, '/payouts'), unrouted(2, 30, '/refunds')] }));
    expect(v.map((x) => [x.code, x.step, x.actual])).toEqual([
      ['routed-requests', 10, '2 requests to POST /payouts, which no route takes (answered 404, nothing committed), the first from worker-0#0'],
      ['routed-requests', 30, 'a request to POST /refunds, which no route takes (answered 404, nothing committed), the first from worker-0#0'],
    ]);
  });

  test('fires once per other host a request went to', () => {
    const v = checkRoutedRequests(run({ serviceUrl: 'http://service.durasim', strayRequests: [{ seq: 5, sender: 'worker-0#0', method: 'POST', url: 'https://api.payments.example/v1/payouts' }, { seq: 9, method: 'POST', url: 'https://api.payments.example/v1/payouts' }] }));
    expect(v.map((x) => [x.step, x.expected, x.actual])).toEqual([[5, 'every request to the service, at http://service.durasim (the url the task names)', '2 requests to https://api.payments.example, another host (POST https://api.payments.example/v1/payouts, the first from worker-0#0): it never reached the service']]);
  });

  test('stays quiet when every request took a route', () => {
    expect(checkRoutedRequests(run({ requests: [post(0, 'a', 'd', 10)], strayRequests: [] }))).toEqual([]);
  });
});

describe('fault-free-effects', () => {
  const ended = (history: string[]) => ({ final: { durable: {}, visible: { a: op(history) }, files: {} } });

  test('fires on a publish recorded failed (or succeeded) with no effect, in a run without faults', () => {
    const failed = checkFaultFreeEffects(run({ ...ended(['authorized', 'dispatched', 'failed']), requests: [unrouted(0, 10, '/payouts')] }));
    expect(failed.map((x) => [x.key, x.expected, x.actual])).toEqual([['a', 'an effect of a at the service: the run had no fault, and the journal recorded it failed', 'no request for a reached the service (1 request(s) went to no route or without a key)']]);
    expect(checkFaultFreeEffects(run({ ...ended(['authorized', 'dispatched', 'succeeded']) })).map((x) => x.key)).toEqual(['a']);
  });

  test('stays quiet with the effect there, with any fault in the scenario, and on an operation not yet final', () => {
    expect(checkFaultFreeEffects(run({ ...ended(['authorized', 'dispatched', 'succeeded']), effects: [effect('a', 'd', 'r', 10)] }))).toEqual([]);
    expect(checkFaultFreeEffects(run({ ...ended(['authorized', 'dispatched', 'failed']), scenario: { faults: [{ kind: 'response' }] } }))).toEqual([]);
    expect(checkFaultFreeEffects(run({ ...ended(['authorized', 'dispatched']) }))).toEqual([]);
  });
});
