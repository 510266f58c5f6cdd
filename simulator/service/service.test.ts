import { describe, expect, test } from 'vitest';
import { digestOf } from '../../model/contract/digest.js';
import { VirtualClock } from '../world/clock.js';
import { DEFAULT_SERVICE, type ResponseFault, type ScenarioService } from '../scenario/scenario.js';
import { routeOf, ServiceCore } from './service.js';

function core(config: Partial<ScenarioService> = {}, faults: ResponseFault[] = [], clock = new VirtualClock()): ServiceCore {
  return new ServiceCore({ ...DEFAULT_SERVICE, existing: [], resources: { config: 'v1' }, ...config }, faults, clock);
}
const post = (s: ServiceCore, key: string, body: string) => s.receive('POST', { kind: 'publish', key }, body);
const get = (s: ServiceCore, key: string) => s.receive('GET', { kind: 'query', key }, '');
const json = (body: string): unknown => JSON.parse(body);

describe('ServiceCore semantics', () => {
  test('a POST commits one effect and answers 201 with a committed receipt', () => {
    const s = core();
    const reply = post(s, 'a', 'body');
    expect(reply.status).toBe(201);
    expect(json(reply.body)).toEqual({ key: 'a', digest: digestOf('body'), state: 'committed', receipt: 'rcpt-a-1' });
    expect(s.effects).toHaveLength(1);
  });

  test('the same key and digest replays the stored receipt with no new effect', () => {
    const s = core();
    post(s, 'a', 'body');
    const replay = post(s, 'a', 'body');
    expect(replay.status).toBe(200);
    expect(json(replay.body)).toMatchObject({ receipt: 'rcpt-a-1' });
    expect(s.effects).toHaveLength(1);
  });

  test('the same key with another digest answers 409 and makes no effect', () => {
    const s = core();
    post(s, 'a', 'body');
    const conflict = post(s, 'a', 'other body');
    expect(conflict.status).toBe(409);
    expect(json(conflict.body)).toEqual({ error: 'fingerprint_conflict' });
    expect(s.effects).toHaveLength(1);
  });

  test('GET answers the receipt, or 404, or 405 when no query is offered', () => {
    const s = core();
    expect(get(s, 'a').status).toBe(404);
    post(s, 'a', 'body');
    expect(json(get(s, 'a').body)).toMatchObject({ key: 'a', state: 'committed', receipt: 'rcpt-a-1' });
    expect(get(core({ query: false }), 'a').status).toBe(405);
  });

  test('volatile idempotency memory forgets on restart, so a replay makes a second effect', () => {
    const s = core({ idempotencyMemory: 'volatile' });
    post(s, 'a', 'body');
    s.restart();
    expect(get(s, 'a').status).toBe(404);
    expect(post(s, 'a', 'body').status).toBe(201);
    expect(s.effectsFor('a')).toHaveLength(2);
  });

  test('durable idempotency memory survives a restart', () => {
    const s = core({ idempotencyMemory: 'durable' });
    post(s, 'a', 'body');
    s.restart();
    expect(post(s, 'a', 'body').status).toBe(200);
    expect(s.effectsFor('a')).toHaveLength(1);
  });

  test('existing effects are there before the run and conflict with another intent', () => {
    const s = core({ existing: [{ key: 'a', body: 'old intent' }] });
    expect(s.effects).toEqual([expect.objectContaining({ key: 'a', digest: digestOf('old intent'), requestIndex: null })]);
    expect(post(s, 'a', 'new intent').status).toBe(409);
  });

  test('resources are served by GET /resources/:name', () => {
    const s = core();
    expect(json(s.receive('GET', { kind: 'resource', name: 'config' }, '').body)).toEqual({ resource: 'config', value: 'v1' });
    expect(s.receive('GET', { kind: 'resource', name: 'nope' }, '').status).toBe(404);
  });
});

describe('ServiceCore faults', () => {
  const faulted = (fault: ResponseFault['fault'], extra: { delayMs?: number; commitDelayMs?: number } = {}) => core({}, [{ kind: 'response', request: 0, fault, ...extra }]);

  test('500 before commit makes no effect; 500 after commit does', () => {
    const before = faulted('500-before-commit');
    expect(post(before, 'a', 'b').status).toBe(500);
    expect(before.effects).toHaveLength(0);
    const after = faulted('500-after-commit');
    expect(post(after, 'a', 'b').status).toBe(500);
    expect(after.effects).toHaveLength(1);
  });

  test('a dropped response still commits', () => {
    const s = faulted('drop-after-commit');
    expect(post(s, 'a', 'b').deliver).toBe('drop');
    expect(s.effects).toHaveLength(1);
  });

  test('accept-later answers 202 and commits later; GET says 404 until then', () => {
    const clock = new VirtualClock();
    const s = core({}, [{ kind: 'response', request: 0, fault: 'accept-later', commitDelayMs: 50 }], clock);
    expect(post(s, 'a', 'b').status).toBe(202);
    expect(get(s, 'a').status).toBe(404);
    expect(post(s, 'a', 'b').status).toBe(202);
    expect(s.effects).toHaveLength(0);
    for (const timer of clock.advance()) timer.fire();
    expect(clock.nowMs).toBe(50);
    expect(s.effects).toEqual([expect.objectContaining({ key: 'a', atMs: 50, requestIndex: 0 })]);
    expect(get(s, 'a').status).toBe(200);
  });

  test.each([
    ['wrong-key', { key: 'not-a' }],
    ['wrong-digest', { digest: '0'.repeat(64) }],
    ['empty-receipt', { receipt: '' }],
    ['pending-state', { state: 'pending' }],
  ] as const)('%s mangles the receipt but commits', (fault, expected) => {
    const s = faulted(fault);
    const reply = post(s, 'a', 'b');
    expect(reply.status).toBe(201);
    expect(json(reply.body)).toMatchObject(expected);
    expect(s.effects).toHaveLength(1);
  });

  test('malformed, null and cut bodies', () => {
    expect(() => json(post(faulted('malformed-body'), 'a', 'b').body)).toThrow();
    expect(post(faulted('null-body'), 'a', 'b').body).toBe('null');
    expect(post(faulted('cut-body'), 'a', 'b').cut).toBe(true);
  });

  test('delay adds virtual milliseconds; faults apply to the n-th request only', () => {
    const s = core({}, [{ kind: 'response', request: 1, fault: 'delay', delayMs: 3000 }]);
    expect(post(s, 'a', 'b').delayMs).toBe(0);
    expect(get(s, 'a').delayMs).toBe(3000);
    expect(get(s, 'a').delayMs).toBe(0);
    expect(s.requests.map((r) => r.fault)).toEqual([undefined, 'delay', undefined]);
  });
});

describe('routeOf', () => {
  test('maps methods and paths onto routes', () => {
    expect(routeOf('POST', '/operations/a%2Fb')).toEqual({ kind: 'publish', key: 'a/b' });
    expect(routeOf('GET', '/operations/a')).toEqual({ kind: 'query', key: 'a' });
    expect(routeOf('GET', '/resources/config')).toEqual({ kind: 'resource', name: 'config' });
    expect(routeOf('DELETE', '/operations/a')).toEqual({ kind: 'unknown' });
    expect(routeOf('GET', '/elsewhere')).toEqual({ kind: 'unknown' });
  });
});

describe('ServiceCore faults anchored to a key', () => {
  test('hit the n-th request about that key, whatever other requests came before', () => {
    const s = core({}, [{ kind: 'response', at: { mentions: 'b', occurrence: 1 }, fault: '500-before-commit' }]);
    expect(post(s, 'a', 'x').status).toBe(201);
    expect(s.receive('GET', { kind: 'query', key: 'b' }, '').status).toBe(404); // request #0 about b
    expect(post(s, 'a', 'x').status).toBe(200);
    expect(post(s, 'b', 'y').status).toBe(500); // request #1 about b
    expect(post(s, 'b', 'y').status).toBe(201);
  });
});

describe('fencing tokens', () => {
  const fenced = (s: ServiceCore, key: string, token?: number) => s.receive('POST', { kind: 'publish', key }, `body ${key}`, token === undefined ? {} : { fencingToken: token });

  test('a POST whose token is lower than the highest accepted is refused with 412 before it can commit; equal or higher, or none, goes on', () => {
    const s = core();
    expect(fenced(s, 'a', 2).status).toBe(201);
    const stale = fenced(s, 'b', 1);
    expect(stale.status).toBe(412);
    expect(json(stale.body)).toEqual({ error: 'stale_fencing_token', highest: 2 });
    expect(fenced(s, 'c', 2).status).toBe(201);
    expect(fenced(s, 'd', 5).status).toBe(201);
    expect(fenced(s, 'e').status).toBe(201);
    expect(fenced(s, 'f', 4).status).toBe(412);
    expect(s.effects.map((e) => [e.key, e.fencingToken])).toEqual([['a', 2], ['c', 2], ['d', 5], ['e', undefined]]);
    expect(s.requests.map((r) => r.fencingToken)).toEqual([2, 1, 2, 5, undefined, 4]);
  });

  test('a volatile service forgets the highest token on restart; a durable one keeps it', () => {
    for (const idempotencyMemory of ['durable', 'volatile'] as const) {
      const s = core({ idempotencyMemory });
      fenced(s, 'a', 7);
      s.restart();
      expect(fenced(s, 'b', 3).status).toBe(idempotencyMemory === 'durable' ? 412 : 201);
    }
  });
});

describe('failure classes', () => {
  test('invalid-argument: 400 with no effect, and again for every later POST of that key and body; another body for the key is judged afresh', () => {
    const s = core({}, [{ kind: 'response', request: 0, fault: 'invalid-argument' }]);
    const first = post(s, 'a', 'bad');
    expect([first.status, json(first.body)]).toEqual([400, { error: 'invalid_argument', key: 'a' }]);
    expect(post(s, 'a', 'bad').status).toBe(400);
    expect(get(s, 'a').status).toBe(404);
    expect(post(s, 'a', 'fixed').status).toBe(201);
    expect(s.effects.map((e) => e.digest)).toEqual([digestOf('fixed')]);
  });

  test('permission-revoked: 403 with no effect, and for every later POST of any key; reads still answer', () => {
    const s = core({}, [{ kind: 'response', request: 1, fault: 'permission-revoked' }]);
    expect(post(s, 'a', 'x').status).toBe(201);
    expect(post(s, 'b', 'y').status).toBe(403);
    expect(post(s, 'c', 'z').status).toBe(403);
    expect(get(s, 'a').status).toBe(200);
    expect(s.effects.map((e) => e.key)).toEqual(['a']);
  });

  test('unavailable: 503 naming the wait it asks for, nothing committed, and the request records it; the next try goes through', () => {
    const s = core({}, [{ kind: 'response', request: 0, fault: 'unavailable', retryAfterMs: 2_500 }, { kind: 'response', request: 1, fault: 'unavailable' }]);
    const busy = post(s, 'a', 'x');
    expect([busy.status, json(busy.body)]).toEqual([503, { error: 'unavailable', retryAfterMs: 2_500 }]);
    expect(get(s, 'a').status).toBe(503); // a read can find the dependency down too
    expect(s.requests.map((r) => r.retryAfterMs)).toEqual([2_500, 1_000]);
    expect(post(s, 'a', 'x').status).toBe(201);
    expect(s.effects).toHaveLength(1);
  });

  test('reset-after-commit: the effect is committed, then the connection is reset', () => {
    const s = core({}, [{ kind: 'response', request: 0, fault: 'reset-after-commit' }]);
    const reply = post(s, 'a', 'x');
    expect(reply.deliver).toBe('reset');
    expect(s.effects).toHaveLength(1);
    expect(post(s, 'a', 'x').status).toBe(200);
  });
});
