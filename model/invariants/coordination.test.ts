/** The coordination invariants fire on runs built to violate them, and stay quiet on the correct counterparts. */
import { describe, expect, test } from 'vitest';
import type { StoreCallEvidence, StoreEvidence } from '../evidence.js';
import { checkCasLoserStops } from './casLoserStops.js';
import { checkFencedEffects } from './fencedEffects.js';
import { effect, op, post, run, D1 } from './fixtures.js';
import { checkConvergence } from './convergence.js';
import { holderAt, leaseTenures } from './leases.js';
import { checkSingleAdvancer } from './singleAdvancer.js';
import { checkTakeoverExclusive } from './takeoverExclusive.js';
import { checkProjectionConsistent } from './projectionConsistent.js';
import { createHash } from 'node:crypto';

let index = 0;
function call(seq: number, by: string, storeTimeMs: number, request: StoreCallEvidence['request'], answer: StoreCallEvidence['answer'], applied = answer.ok, fault?: string): StoreCallEvidence {
  return { index: index++, seq, by, storeTimeMs, request, applied, answer, ...(fault ? { fault } : {}) };
}
const acquire = (seq: number, by: string, t: number, token: number, ttlMs = 100) =>
  call(seq, by, t, { op: 'acquire', name: 'task-1', holder: by, ttlMs }, { ok: true, lease: { name: 'task-1', holder: by, token, expiresAtMs: t + ttlMs } });
const advance = (seq: number, by: string, t: number, ifVersion: number, ok = true) =>
  call(seq, by, t, { op: 'put', key: 'task-1/state', ifVersion }, ok ? { ok: true, version: ifVersion + 1 } : { ok: false, reason: 'conflict', version: ifVersion + 1 });
const store = (calls: StoreCallEvidence[], restarts: StoreEvidence['restarts'] = []): StoreEvidence => ({ calls, restarts, offsetMs: 1_000 });
const withTask = { scenario: { task: { id: 'task-1', operations: [{ kind: 'publish' as const, key: 'a', body: 'body one' }] } } };
const sent = (index: number, seq: number, sender: string, key = 'a') => ({ ...post(index, key, D1, seq), sender });

describe('lease tenures', () => {
  test('acquire, renew, release and a volatile restart shape who held the lease when', () => {
    const input = run({
      ...withTask,
      store: store(
        [
          acquire(1, 'worker-0#0', 1_000, 1),
          call(2, 'worker-0#0', 1_050, { op: 'renew', name: 'task-1', token: 1, ttlMs: 100 }, { ok: true, lease: { name: 'task-1', holder: 'worker-0#0', token: 1, expiresAtMs: 1_150 } }),
          acquire(5, 'worker-1#0', 1_200, 2),
          call(6, 'worker-1#0', 1_210, { op: 'release', name: 'task-1', token: 2 }, { ok: true }),
        ],
        [],
      ),
    });
    const tenures = leaseTenures(input);
    expect(tenures).toEqual([
      { holder: 'worker-0', token: 1, fromSeq: 1, fromMs: 1_000, untilMs: 1_150 },
      { holder: 'worker-1', token: 2, fromSeq: 5, fromMs: 1_200, untilMs: 1_300, endSeq: 6 },
    ]);
    expect(holderAt(tenures, 3, 1_149)?.holder).toBe('worker-0');
    expect(holderAt(tenures, 3, 1_150)).toBeUndefined(); // at exactly the expiry the lease is gone
    expect(holderAt(tenures, 5, 1_205)?.holder).toBe('worker-1');
    expect(holderAt(tenures, 6, 1_210)).toBeUndefined();
    expect(holderAt(tenures, 0, 1_000)).toBeUndefined(); // in the same millisecond, but before the grant
  });
});

describe('cas-loser-stops', () => {
  const lost = advance(10, 'worker-1#0', 1_000, 1, false);

  test('fires when the loser of a compare-and-set on the task checkpoint then writes to the service', () => {
    const violations = checkCasLoserStops(run({ ...withTask, store: store([lost]), requests: [sent(0, 12, 'worker-1#0')] }));
    expect(violations).toEqual([
      expect.objectContaining({ code: 'cas-loser-stops', key: 'a', step: 12, expected: 'no write from worker-1#0 after its compare-and-set on task-1/state was refused at #10', actual: 'it sent request #0 (POST a)' }),
    ]);
  });

  test('stays quiet: a write before the loss, a write by another incarnation, a query, a timed-out refusal, a key outside the task', () => {
    const requests = [sent(0, 8, 'worker-1#0'), sent(1, 12, 'worker-1#1'), { ...post(2, 'a', D1, 13), method: 'GET', route: { kind: 'query', key: 'a' }, sender: 'worker-1#0' }];
    expect(checkCasLoserStops(run({ ...withTask, store: store([lost]), requests }))).toEqual([]);
    const timedOut = { ...lost, fault: 'timeout-before-apply' };
    expect(checkCasLoserStops(run({ ...withTask, store: store([timedOut]), requests: [sent(0, 12, 'worker-1#0')] }))).toEqual([]);
    const elsewhere = { ...lost, request: { ...lost.request, key: 'locks/other' } };
    expect(checkCasLoserStops(run({ ...withTask, store: store([elsewhere]), requests: [sent(0, 12, 'worker-1#0')] }))).toEqual([]);
  });
});

describe('single-advancer', () => {
  test('fires on two advances from one version (a volatile store repeated it)', () => {
    const violations = checkSingleAdvancer(run({ ...withTask, store: store([advance(3, 'worker-0#0', 1_000, 1), advance(9, 'worker-1#0', 1_010, 1)], [{ seq: 5, storeTimeMs: 1_005, memory: 'volatile' }]) }));
    expect(violations.map((v) => [v.code, v.step, v.actual])).toEqual([['single-advancer', 9, 'worker-1#0 advanced it again from there at #9; worker-0#0 already had at #3']]);
  });

  test("fires on an advance by a worker that does not hold the task's lease at that moment on the store's clock", () => {
    const calls = [acquire(1, 'worker-0#0', 1_000, 1, 100), acquire(4, 'worker-1#0', 1_100, 2, 100), advance(6, 'worker-0#0', 1_120, 1)];
    const violations = checkSingleAdvancer(run({ ...withTask, store: store(calls) }));
    expect(violations).toEqual([expect.objectContaining({ code: 'single-advancer', step: 6, actual: 'worker-0#0 advanced it while worker-1 held the lease (token 2)' })]);
    const expired = checkSingleAdvancer(run({ ...withTask, store: store([acquire(1, 'worker-0#0', 1_000, 1, 100), advance(6, 'worker-0#0', 1_100, 1)]) }));
    expect(expired[0]?.actual).toBe("worker-0#0 advanced it while nobody held the lease (worker-0's tenure ran out at 1100)");
  });

  test('stays quiet on one holder advancing version by version, and with no lease in use', () => {
    const calls = [acquire(1, 'worker-0#0', 1_000, 1), advance(2, 'worker-0#0', 1_010, 1), advance(3, 'worker-0#1', 1_020, 2), advance(4, 'worker-1#0', 1_030, 3, false)];
    expect(checkSingleAdvancer(run({ ...withTask, store: store(calls) }))).toEqual([]);
    expect(checkSingleAdvancer(run({ ...withTask, store: store([advance(2, 'worker-0#0', 1_010, 1), advance(3, 'worker-1#0', 1_020, 2)]) }))).toEqual([]);
  });
});

describe('fenced-effects', () => {
  const calls = [acquire(1, 'worker-0#0', 1_000, 1), acquire(20, 'worker-1#0', 1_200, 2)];

  test('fires on an effect without a token, and on one whose token was granted to another worker, while the lease is in use', () => {
    const requests = [sent(0, 10, 'worker-0#0'), { ...sent(1, 30, 'worker-1#0', 'b'), fencingToken: 1 }];
    const effects = [effect('a', D1, 'rcpt-a-1', 11, 0), { ...effect('b', D1, 'rcpt-b-2', 31, 1), fencingToken: 1 }];
    const violations = checkFencedEffects(run({ ...withTask, store: store(calls), requests, effects }));
    expect(violations.map((v) => [v.key, v.step, v.actual])).toEqual([
      ['a', 11, 'request #0 from worker-0#0 carried no fencing token'],
      ['b', 31, 'it carried token 1, granted to worker-0'],
    ]);
  });

  test("stays quiet when every effect carries its sender's token, and when no lease is in use", () => {
    const requests = [{ ...sent(0, 10, 'worker-0#0'), fencingToken: 1 }, { ...sent(1, 30, 'worker-1#0', 'b'), fencingToken: 2 }];
    const effects = [{ ...effect('a', D1, 'rcpt-a-1', 11, 0), fencingToken: 1 }, { ...effect('b', D1, 'rcpt-b-2', 31, 1), fencingToken: 2 }];
    expect(checkFencedEffects(run({ ...withTask, store: store(calls), requests, effects }))).toEqual([]);
    expect(checkFencedEffects(run({ ...withTask, store: store([]), requests: [sent(0, 10, 'worker-0#0')], effects: [effect('a', D1, 'rcpt-a-1', 11, 0)] }))).toEqual([]);
  });
});

describe('cas-loser-stops and a retried write', () => {
  test("a refusal caused by the worker's own earlier write, whose answer it never heard, is no race lost", () => {
    const mine = call(3, 'worker-0#0', 1_000, { op: 'put', key: 'task-1/events/0', ifAbsent: true }, { ok: true, version: 1 }, true, 'timeout-after-apply');
    const again = call(6, 'worker-0#0', 2_000, { op: 'put', key: 'task-1/events/0', ifAbsent: true }, { ok: false, reason: 'conflict', version: 1 });
    expect(checkCasLoserStops(run({ ...withTask, store: store([mine, again]), requests: [sent(0, 12, 'worker-0#0')] }))).toEqual([]);
    const theirs = { ...mine, by: 'worker-1#0' };
    expect(checkCasLoserStops(run({ ...withTask, store: store([theirs, again]), requests: [sent(0, 12, 'worker-0#0')] }))).toHaveLength(1);
  });
});

describe('a write refused for a stale fencing token', () => {
  test('is the fencing working: no check counts it as a write; the same request unfenced would be one', async () => {
    const { judge } = await import('../judge.js');
    const done = { a: { kind: 'operation' as const, history: ['authorized', 'dispatched', 'succeeded'], digest: D1, receipt: 'rcpt-a-1' } };
    const late = { ...sent(1, 40, 'worker-0#0'), recordsAtArrival: done, status: 412 };
    const base = { ...withTask, effects: [effect('a', D1, 'rcpt-a-1', 21, 0)], final: { durable: done, visible: done, files: {} }, observed: { a: [{ state: 'authorized', seq: 5, image: 'durable' as const }, { state: 'dispatched', seq: 10, image: 'durable' as const }, { state: 'succeeded', seq: 25, image: 'durable' as const }] } };
    const first = { ...sent(0, 20, 'worker-1#0'), recordsAtArrival: { a: { ...done.a, history: ['authorized', 'dispatched'] } } };
    const unfenced = judge(run({ ...base, requests: [first, late] })).map((v) => v.code);
    expect(unfenced).toContain('completed-replayed');
    expect(judge(run({ ...base, requests: [first, { ...late, fenced: true }] }))).toEqual([]);
  });
});

describe('takeover-exclusive', () => {
  const operatorTakes = (seq: number, t: number, token: number) => [
    call(seq, 'operator', t, { op: 'release', name: 'task-1', force: true, reason: 'operator takeover' }, { ok: true, lease: { name: 'task-1', holder: 'worker-0', token: token - 1, expiresAtMs: t + 100 } }),
    call(seq + 1, 'operator', t, { op: 'acquire', name: 'task-1', holder: 'operator', ttlMs: 5_000 }, { ok: true, lease: { name: 'task-1', holder: 'operator', token, expiresAtMs: t + 5_000 } }),
  ];
  const handback = (seq: number, t: number, token: number) => call(seq, 'operator', t, { op: 'release', name: 'task-1', token }, { ok: true, lease: { name: 'task-1', holder: 'operator', token, expiresAtMs: t + 5_000 } });

  test('fires on an agent write the service took, an agent advance, and an agent forcing the operator out, while an operator holds the task', () => {
    const calls = [acquire(1, 'worker-0#0', 1_000, 1), ...operatorTakes(10, 1_010, 2), advance(12, 'worker-0#0', 1_011, 1), call(14, 'worker-0#0', 1_012, { op: 'release', name: 'task-1', force: true, reason: 'mine' }, { ok: true, lease: { name: 'task-1', holder: 'operator', token: 2, expiresAtMs: 6_010 } })];
    const requests = [{ ...sent(0, 13, 'worker-0#0'), atMs: 12, fencingToken: 1 }, { ...sent(1, 15, 'worker-0#0', 'b'), atMs: 12, status: 500 }];
    const effects = [effect('a', D1, 'rcpt-a-1', 13, 0)]; // b's request failed before it committed: no effect
    const violations = checkTakeoverExclusive(run({ ...withTask, store: { calls, restarts: [], offsetMs: 1_000 }, requests, effects }));
    expect(violations.map((v) => [v.step, v.actual])).toEqual([
      [13, 'worker-0#0 sent request #0 (POST a) while operator held the task (token 2), and it took effect (rcpt-a-1)'],
      [12, 'worker-0#0 advanced task-1/state in the store while operator held the task (token 2)'],
      [14, "worker-0#0 force-released operator's lease on task-1 (reason: mine)"],
    ]);
  });

  test('stays quiet before the takeover, after the handback, for the operator itself, and with no operator at all', () => {
    const calls = [acquire(1, 'worker-0#0', 1_000, 1), advance(2, 'worker-0#0', 1_001, 1), ...operatorTakes(10, 1_010, 2), handback(20, 2_000, 2), acquire(21, 'worker-0#1', 2_001, 3), advance(22, 'worker-0#1', 2_002, 2)];
    const requests = [{ ...sent(0, 3, 'worker-0#0'), atMs: 2 }, { ...sent(1, 23, 'worker-0#1'), atMs: 1_003 }];
    const effects = [effect('a', D1, 'rcpt-a-1', 3, 0), effect('a', D1, 'rcpt-a-2', 23, 1)];
    expect(checkTakeoverExclusive(run({ ...withTask, store: { calls, restarts: [], offsetMs: 1_000 }, requests, effects }))).toEqual([]);
    expect(checkTakeoverExclusive(run({ ...withTask, store: store([acquire(1, 'worker-0#0', 1_000, 1)]), requests }))).toEqual([]);
  });
});

describe('a journal that does not take part in the lease protocol', () => {
  test('is not judged by it, even when an operator takes the task over', () => {
    const calls = [call(10, 'operator', 1_010, { op: 'acquire', name: 'task-1', holder: 'operator', ttlMs: 5_000 }, { ok: true, lease: { name: 'task-1', holder: 'operator', token: 1, expiresAtMs: 6_010 } })];
    const input = run({ ...withTask, store: { calls, restarts: [], offsetMs: 1_000 }, requests: [{ ...sent(0, 12, 'worker-0#0'), atMs: 12 }], effects: [effect('a', D1, 'rcpt-a-1', 13, 0)] });
    expect([...checkTakeoverExclusive(input), ...checkFencedEffects(input), ...checkSingleAdvancer(input)]).toEqual([]);
  });
});

describe('projection-consistent', () => {
  const putEvent = (seq: number, n: number, value: string) => call(seq, 'worker-0#0', 1_000 + seq, { op: 'put', key: `task-1/events/${String(n).padStart(6, '0')}`, value, ifAbsent: true }, { ok: true, version: seq });
  const putProjection = (seq: number, events: number, digest: string) => call(seq, 'worker-0#0', 1_000 + seq, { op: 'put', key: 'task-1/projection', value: JSON.stringify({ events, digest }) }, { ok: true, version: seq });
  const digest = (values: string[]) => createHash('sha256').update(values.map((v) => `${v}\n`).join('')).digest('hex');

  test('fires on a projection ahead of its events, and on one whose digest is not theirs', () => {
    const ahead = checkProjectionConsistent(run({ ...withTask, store: store([putEvent(1, 0, 'e0'), putProjection(2, 2, digest(['e0', 'e1']))]) }));
    expect(ahead.map((v) => [v.step, v.actual])).toEqual([[2, 'it claims 2 events; the store holds 1']]);
    const other = checkProjectionConsistent(run({ ...withTask, store: store([putEvent(1, 0, 'e0'), putProjection(2, 1, digest(['something else']))]) }));
    expect(other[0]?.actual).toMatch(/^it claims 1 event with digest [0-9a-f]{12}; those events digest to [0-9a-f]{12}$/);
  });

  test('stays quiet on a projection that folds the events there, behind or level with them, and with no projection at all', () => {
    const calls = [putEvent(1, 0, 'e0'), putProjection(2, 1, digest(['e0'])), putEvent(3, 1, 'e1'), putEvent(4, 2, 'e2'), putProjection(5, 2, digest(['e0', 'e1']))];
    expect(checkProjectionConsistent(run({ ...withTask, store: store(calls) }))).toEqual([]);
    expect(checkProjectionConsistent(run({ ...withTask, store: store([putEvent(1, 0, 'e0')]) }))).toEqual([]);
  });

  describe('a projection someone else wrote, read by a worker', () => {
    const userPut = (seq: number, value: string) => call(seq, 'user', 1_000 + seq, { op: 'put', key: 'task-1/projection', value }, { ok: true, version: seq });
    const getProjection = (seq: number, by: string, value: string | undefined, fault?: string) =>
      call(seq, by, 1_000 + seq, { op: 'get', key: 'task-1/projection' }, { ok: true, ...(value === undefined ? {} : { entry: { key: 'task-1/projection', value, version: seq } }) }, false, fault);
    const lie = JSON.stringify({ events: 3, digest: '0'.repeat(64) });
    const quarantine = (seq: number, by: string) => call(seq, by, 1_000 + seq, { op: 'put', key: 'task-1/quarantine', value: '{}' }, { ok: true, version: seq });

    test('fires when the worker that read the lie then writes an event, or sends a write to the service', () => {
      const calls = [putEvent(1, 0, 'e0'), userPut(2, lie), getProjection(3, 'worker-0#1', lie), putEvent(4, 1, 'e1')];
      calls[3] = { ...calls[3] as StoreCallEvidence, by: 'worker-0#1' };
      const event = checkProjectionConsistent(run({ ...withTask, store: store(calls) }));
      expect(event.map((v) => [v.step, v.expected, v.actual])).toEqual([
        [4, 'worker-0#1 to quarantine the task after it read a projection that does not fold the events (#3: it claims 3 events; the store holds 1), and to advance it no further', 'it wrote event task-1/events/000001'],
      ]);
      // Read through a list of the task's keys rather than a get: the same lie, the same duty.
      const list = call(3, 'worker-0#1', 1_003, { op: 'list', prefix: 'task-1/' }, { ok: true, entries: [{ key: 'task-1/projection', value: lie, version: 2 }] }, false);
      const listed = checkProjectionConsistent(run({ ...withTask, store: store([calls[0] as StoreCallEvidence, calls[1] as StoreCallEvidence, list, calls[3] as StoreCallEvidence]) }));
      expect(listed.map((v) => v.step)).toEqual([4]);
      const posted = checkProjectionConsistent(run({ ...withTask, store: store(calls.slice(0, 3)), requests: [sent(0, 5, 'worker-0#1')] }));
      expect(posted.map((v) => [v.step, v.actual])).toEqual([[5, 'it sent request #0 (POST a)']]);
    });

    test('stays quiet when the worker quarantines instead, on a stale read of an older projection, and on the lie itself (not a worker\'s)', () => {
      const quarantined = [putEvent(1, 0, 'e0'), userPut(2, lie), getProjection(3, 'worker-0#1', lie), quarantine(4, 'worker-0#1')];
      expect(checkProjectionConsistent(run({ ...withTask, store: store(quarantined) }))).toEqual([]);
      const older = JSON.stringify({ events: 1, digest: digest(['e0']) });
      const stale = [putEvent(1, 0, 'e0'), putProjection(2, 1, digest(['e0'])), putEvent(3, 1, 'e1'), putProjection(4, 2, digest(['e0', 'e1'])), getProjection(5, 'worker-1#0', older, 'stale-read'), putEvent(6, 2, 'e2')];
      expect(checkProjectionConsistent(run({ ...withTask, store: store(stale) }))).toEqual([]);
      // A read that timed out was never heard: it cannot have misled the worker.
      const unheard = [putEvent(1, 0, 'e0'), userPut(2, lie), getProjection(3, 'worker-0#1', lie, 'timeout-after-apply'), { ...putEvent(4, 1, 'e1'), by: 'worker-0#1' }];
      expect(checkProjectionConsistent(run({ ...withTask, store: store(unheard) }))).toEqual([]);
    });

    test('convergence excuses a task left unfinished only when its worker quarantined it after reading a lie', () => {
      const unfinished = { final: { durable: {}, visible: { a: op(['intent']) }, files: {} } };
      const just = [userPut(2, lie), getProjection(3, 'worker-0#0', lie), quarantine(4, 'worker-0#0')];
      expect(checkConvergence(run({ ...withTask, ...unfinished, store: store(just) }))).toEqual([]);
      const honest = JSON.stringify({ events: 0, digest: digest([]) });
      const unjust = [putProjection(2, 0, digest([])), getProjection(3, 'worker-0#0', honest), quarantine(4, 'worker-0#0')];
      expect(checkConvergence(run({ ...withTask, ...unfinished, store: store(unjust) })).map((v) => v.actual)).toEqual(['it stopped at intent']);
    });
  });
});
