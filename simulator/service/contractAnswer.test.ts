/** The service under a contract: each answer the contract scripts, the key where it travels, and what the judge is told. */
import { describe, expect, test } from 'vitest';
import { digestOf } from '../../model/contract/digest.js';
import type { ServiceContract } from '../contract/contract.js';
import { parseContract } from '../contract/parseContract.js';
import { VirtualClock } from '../world/clock.js';
import { DEFAULT_SERVICE, type ResponseFault } from '../scenario/scenario.js';
import { contractRoute } from './contractRoute.js';
import { ServiceCore } from './service.js';

const fail = (field: string, problem: string): never => {
  throw new Error(`${field} ${problem}`);
};
const contractOf = (json: unknown): ServiceContract => parseContract(json, 'service', fail) as ServiceContract;
const PAYMENTS = contractOf({ preset: 'payments', url: 'https://api.example.com' });
const IETF = contractOf({ preset: 'ietf', url: 'https://api.example.com/v2', effects: [{ method: 'POST', path: '/orders', key: { header: 'Idempotency-Key' }, intent: { pointers: ['/amount', '/to'] } }], queries: [{ path: '/orders/:id', by: 'receipt', receipt: { path: 'id' } }, { path: '/orders', by: 'filter', filter: { query: 'ref', field: '/ref' }, list: '/items' }], memory: { ttlMs: 60_000 }, outOfScope: ['GET /health'] });

function service(contract: ServiceContract, faults: ResponseFault[] = [], clock = new VirtualClock()): { core: ServiceCore; clock: VirtualClock; send: (method: string, path: string, headers?: Record<string, string>, body?: unknown) => { status: number; headers: Record<string, string>; body: unknown; record: ServiceCore['requests'][number] } } {
  const core = new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: {}, contract }, faults, clock);
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const reply = core.receive(method, contractRoute(contract, method, `${contract.url}${path}`, new Headers(headers), text), text, {});
    return { status: reply.status, headers: reply.headers ?? {}, body: reply.body === '' ? undefined : (JSON.parse(reply.body) as unknown), record: core.requests.at(-1) as ServiceCore['requests'][number] };
  };
  return { core, clock, send };
}
const key = (k: string) => ({ 'Idempotency-Key': k, 'content-type': 'application/json' });
const payout = { amount: 100, currency: 'eur', metadata: { id: 'po_1' } };

describe('a service that speaks a contract (payments preset)', () => {
  test('the first request commits one effect and answers the created body, the receipt where the contract puts it', () => {
    const { core, send } = service(PAYMENTS);
    const created = send('POST', '/v1/payouts', key('po_1'), payout);
    expect(created).toMatchObject({ status: 200, body: { id: 'rcpt-po_1-1', object: 'payout', status: 'paid', amount: 100, currency: 'eur', metadata: { id: 'po_1' } } });
    expect(core.effects).toEqual([expect.objectContaining({ key: 'po_1', receipt: 'rcpt-po_1-1', digest: digestOf('{"amount":100,"currency":"eur","metadata":{"id":"po_1"}}') })]);
    // The judge reads the model's status; the wire said the contract's.
    expect(created.record).toMatchObject({ status: 201, wireStatus: 200, answer: 'created', route: { kind: 'publish', key: 'po_1' } });
  });

  test('a replay is flagged by its header and makes no effect; the same JSON in another key order is the same intent', () => {
    const { core, clock, send } = service(PAYMENTS);
    send('POST', '/v1/payouts', key('po_1'), payout);
    clock.skip(10);
    const replay = send('POST', '/v1/payouts', key('po_1'), { metadata: { id: 'po_1' }, currency: 'eur', amount: 100 });
    expect(replay).toMatchObject({ status: 200, headers: { 'idempotent-replayed': 'true' }, body: { id: 'rcpt-po_1-1' } });
    expect(core.effects).toHaveLength(1);
  });

  test('another intent under the key is the mismatch answer (the model\'s conflict); a request while the first is processed is the in-progress answer', () => {
    const { core, clock, send } = service(PAYMENTS, [{ kind: 'response', request: 0, fault: 'delay', delayMs: 1_000 }]);
    send('POST', '/v1/payouts', key('po_1'), payout);
    const during = send('POST', '/v1/payouts', key('po_1'), payout);
    expect(during).toMatchObject({ status: 409, body: { error: { code: 'request_in_progress' } } });
    expect(during.record).toMatchObject({ status: 409, answer: 'inFlight' });
    clock.skip(2_000);
    const other = send('POST', '/v1/payouts', key('po_1'), { ...payout, amount: 200 });
    expect(other).toMatchObject({ status: 400, body: { error: { type: 'idempotency_error' } } });
    expect(other.record).toMatchObject({ status: 409, wireStatus: 400, answer: 'mismatch' });
    expect(core.effects).toHaveLength(1);
  });

  test('a request without its key is the missing-key answer and commits nothing; an unknown route is unrouted', () => {
    const { core, send } = service(PAYMENTS);
    expect(send('POST', '/v1/payouts', { 'content-type': 'application/json' }, payout)).toMatchObject({ status: 400, record: { route: { kind: 'missing-key' }, answer: 'missingKey' } });
    expect(send('POST', '/v1/transfers', key('po_1'), payout)).toMatchObject({ status: 404, record: { route: { kind: 'unknown' }, unrouted: true } });
    expect(core.effects).toEqual([]);
  });

  test('a query by the receipt answers the created body; a mangled receipt is emptied where the contract carries it', () => {
    const { send } = service(PAYMENTS, [{ kind: 'response', request: 1, fault: 'empty-receipt' }]);
    send('POST', '/v1/payouts', key('po_1'), payout);
    expect(send('GET', '/v1/payouts/rcpt-po_1-1')).toMatchObject({ status: 200, body: { id: '', status: 'paid' }, record: { route: { kind: 'query', key: 'po_1', by: 'receipt' } } });
    expect(send('GET', '/v1/payouts/rcpt-nope')).toMatchObject({ status: 404, body: { error: { code: 'resource_missing' } } });
  });

  test('a wrong-digest fault changes the request field the body echoes; a pending-state fault says the contract\'s pending word', () => {
    const { send } = service(PAYMENTS, [{ kind: 'response', request: 0, fault: 'wrong-digest' }, { kind: 'response', request: 1, fault: 'pending-state' }]);
    expect(send('POST', '/v1/payouts', key('po_1'), payout).body).toMatchObject({ amount: 101 });
    expect(send('GET', '/v1/payouts/rcpt-po_1-1').body).toMatchObject({ status: 'pending' });
  });

  test('a 500 after the commit: the effect is committed, the wire says the contract\'s internal answer; a query that finds it says the same, one that finds nothing stays not found', () => {
    const { core, send } = service(PAYMENTS, [{ kind: 'response', request: 0, fault: '500-after-commit' }, { kind: 'response', request: 1, fault: '500-after-commit' }, { kind: 'response', request: 2, fault: '500-after-commit' }]);
    const answer = send('POST', '/v1/payouts', key('po_1'), payout);
    expect(answer).toMatchObject({ status: 500, body: { error: { type: 'api_error' } }, record: { status: 500, committed: true, answer: 'internal' } });
    expect(core.effects).toHaveLength(1);
    expect(send('GET', '/v1/payouts/rcpt-po_1-1')).toMatchObject({ status: 500, body: { error: { type: 'api_error' } } });
    expect(send('GET', '/v1/payouts/rcpt-nope')).toMatchObject({ status: 404 });
  });

  test('a 503 asks its wait in a Retry-After header, in whole seconds; the record keeps the wait the wire asked for', () => {
    const { send } = service(PAYMENTS, [{ kind: 'response', request: 0, fault: 'unavailable', retryAfterMs: 1_500 }]);
    const answer = send('POST', '/v1/payouts', key('po_1'), payout);
    expect(answer).toMatchObject({ status: 503, headers: { 'retry-after': '2' } });
    expect(answer.record).toMatchObject({ status: 503, retryAfterMs: 2_000 });
  });
});

describe('a service that speaks a contract (ietf preset, the project\'s own routes)', () => {
  const order = (amount: number) => ({ amount, to: 'acct-1', ref: 'o-7', note: 'any' });

  test('intent by listed pointers: another note is the same intent, another amount a mismatch (422)', () => {
    const { core, clock, send } = service(IETF);
    send('POST', '/orders', key('o-7'), order(5));
    clock.skip(10); // past the first request's processing (its answer sent)
    expect(send('POST', '/orders', key('o-7'), { ...order(5), note: 'changed' })).toMatchObject({ status: 201, body: { id: 'rcpt-o-7-1' } });
    expect(send('POST', '/orders', key('o-7'), order(6))).toMatchObject({ status: 422, headers: { 'content-type': 'application/problem+json' } });
    expect(core.effects).toHaveLength(1);
  });

  test('a key is forgotten after its time-to-live: a late retry commits a second effect', () => {
    const { core, clock, send } = service(IETF);
    send('POST', '/orders', key('o-7'), order(5));
    clock.skip(60_001);
    const late = send('POST', '/orders', key('o-7'), order(5));
    expect(late).toMatchObject({ status: 201, body: { id: 'rcpt-o-7-2' }, record: { expiredKey: true } });
    expect(core.effects.map((e) => e.key)).toEqual(['o-7', 'o-7']);
  });

  test('a list query filtered by a request field answers the matching effects at its pointer; out-of-scope routes are answered 204 and are no finding', () => {
    const { send } = service(IETF);
    send('POST', '/orders', key('o-7'), order(5));
    expect(send('GET', '/orders?ref=o-7')).toMatchObject({ status: 200, body: { items: [{ id: 'rcpt-o-7-1' }] }, record: { route: { kind: 'query', key: 'o-7', by: 'filter' } } });
    expect(send('GET', '/orders?ref=none')).toMatchObject({ status: 200, body: { items: [] } });
    expect(send('GET', '/health')).toMatchObject({ status: 204, record: { answer: 'outOfScope' } });
    expect(send('GET', '/health').record.unrouted).toBeUndefined();
  });

  test('a request outside the contract\'s url (its path prefix) is unrouted', () => {
    const { core } = service(IETF);
    const route = contractRoute(IETF, 'POST', 'https://api.example.com/orders', new Headers(key('o-7')), '{}');
    expect(route).toEqual({ kind: 'unknown' });
    expect(core.effects).toEqual([]);
  });
});

describe('a contract from JSON', () => {
  const refusal = (json: unknown): string => {
    try {
      parseContract(json, 'service', (field, problem, fix) => {
        throw new Error(`${field} ${problem}. ${fix ?? ''}`.trim());
      });
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };

  test('refuses what it cannot mean, naming the field', () => {
    expect(refusal({ preset: 'stripe' })).toBe('service.preset is "stripe", not a preset. Use one of durasim, ietf, payments, client-token.');
    expect(refusal({ effects: [{ method: 'post', path: '/x', key: { header: 'K' } }] })).toBe('service.effects[0].method must be an HTTP method in capitals, found "post". Write e.g. "POST".');
    expect(refusal({ effects: [{ method: 'POST', path: '/x/:id', key: { path: 'key' } }] })).toBe('service.effects[0].key.path names "key", which is no parameter of "/x/:id". Use one of its :parameters, or put the key elsewhere.');
    expect(refusal({ created: { status: 201, body: { id: '{{receipt}}' }, receipt: '/ref' } })).toBe('service.created.receipt is "/ref", but the created body holds nothing there. Point it at the field whose value is "{{receipt}}".');
    expect(refusal({ mismatch: { status: 422, body: { x: '{{recipt}}' } } })).toBe('service.mismatch.body has a placeholder {{recipt}} durasim does not know. Use {{receipt}}, {{key}}, {{digest}}, {{state}}, {{retryAfterSeconds}}, {{retryAfterMs}} or {{request:/<pointer>}}.');
    expect(refusal({ preset: 'durasim', url: 'https://x.example' })).toBe("service.url cannot be set on the durasim preset (durasim's own protocol, POST /operations/:key). Name another preset (ietf, payments, client-token) to script your own API.");
    // A value fetch's Headers would throw on while the run answers (exit 5, durasim's own failure, before this).
    expect(refusal({ replay: { status: 200, headers: { 'X-Note': 'paid ✓' } } })).toBe('service.replay.headers has "X-Note": "paid ✓", which a header cannot carry (a control character, or one past U+00FF). Write it in printable ASCII, e.g. "paid (ok)".');
    expect(refusal({ replay: { status: 200, headers: { 'X-Note': 'a\u0000b' } } })).toBe('service.replay.headers has "X-Note": "a\\u0000b", which a header cannot carry (a control character, or one past U+00FF). Write it in printable ASCII, e.g. "paid (ok)".');
    expect(refusal({ replay: { status: 200, headers: { 'X-Note': 'payé\tok' } } })).toBe('accepted');
    expect(refusal({ url: 'ftp://x' })).toBe('service.url must be an http or https URL with no query, found "ftp://x". Write the base URL your worker calls, e.g. "https://api.example.com".');
  });

  test('durasim\'s own protocol is no contract; a preset fills what a project leaves out', () => {
    expect(parseContract({ preset: 'durasim' }, 'service', fail)).toBeUndefined();
    expect(contractOf({ url: 'https://x.example/' })).toMatchObject({ preset: 'ietf', url: 'https://x.example', mismatch: { status: 422 }, memory: { ttlMs: 86_400_000 } });
  });
});
