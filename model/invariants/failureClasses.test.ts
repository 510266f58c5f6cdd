/** failure-class-respected and retry-budget fire on runs built to break them, and stay quiet on their correct counterparts. */
import { describe, expect, test } from 'vitest';
import type { RequestEvidence } from '../evidence.js';
import { checkConvergence } from './convergence.js';
import { checkFailureClassRespected } from './failureClassRespected.js';
import { crash, D1, op, post, run } from './fixtures.js';
import { checkRetryBudget } from './retryBudget.js';

const answered = (index: number, key: string, seq: number, sender: string, status: number, extra: Partial<RequestEvidence> = {}): RequestEvidence => ({ ...post(index, key, D1, seq), sender, status, answered: true, atMs: seq, ...extra });

describe('failure-class-respected', () => {
  test('fires when the incarnation that heard a 400 sends the same operation again', () => {
    const v = checkFailureClassRespected(run({ requests: [answered(0, 'a', 10, 'worker-0#0', 400), answered(1, 'a', 20, 'worker-0#0', 400)] }));
    expect(v.map((x) => [x.code, x.key, x.step, x.expected, x.actual])).toEqual([
      ['failure-class-respected', 'a', 20, 'no retry of a after its arguments were refused as invalid (400, request #0): the plan needs fixing', 'worker-0#0 sent it again (request #1)'],
    ]);
  });

  test('fires when a send arrives while failed (after a 400) is already durable, whoever sends it', () => {
    const v = checkFailureClassRespected(run({ requests: [answered(0, 'a', 10, 'worker-0#0', 400), { ...answered(1, 'a', 30, 'worker-0#1', 400), recordsAtArrival: { a: op(['authorized', 'dispatched', 'failed']) } }] }));
    expect(v.map((x) => [x.step, x.actual])).toEqual([[30, 'worker-0#1 sent it (request #1)']]);
  });

  test('fires when the incarnation that heard a 403 sends any further write', () => {
    const v = checkFailureClassRespected(run({ requests: [answered(0, 'a', 10, 'worker-0#0', 403), answered(1, 'b', 20, 'worker-0#0', 403)] }));
    expect(v.map((x) => [x.key, x.actual])).toEqual([['b', 'worker-0#0, which heard it, sent request #1 (POST b)']]);
  });

  test('fires when a 503 is sent again before the wait it asked for, and when an operation ends failed on a 503', () => {
    const early = checkFailureClassRespected(run({ requests: [answered(0, 'a', 10, 'worker-0#0', 503, { retryAfterMs: 2_000 }), answered(1, 'a', 20, 'worker-0#0', 201, { atMs: 1_500 })] }));
    expect(early.map((x) => x.actual)).toEqual(['worker-0#0, which heard it, sent it again 1490 ms after (request #1)']);
    const failed = checkFailureClassRespected(run({ requests: [answered(0, 'a', 10, 'worker-0#0', 503, { retryAfterMs: 2_000 })], final: { durable: {}, visible: { a: op(['authorized', 'dispatched', 'failed']) }, files: {} } }));
    expect(failed.map((x) => x.actual)).toEqual(['it ends failed on a 503 (request #0): a dependency that is down is not a verdict']);
  });

  test('stays quiet on what was never heard, on a later incarnation that found no record, on a 503 waited out, and on failed after a 400', () => {
    const unheard = { ...answered(0, 'a', 10, 'worker-0#0', 400), answered: false };
    expect(checkFailureClassRespected(run({ requests: [unheard, answered(1, 'a', 20, 'worker-0#0', 400)] }))).toEqual([]);
    expect(checkFailureClassRespected(run({ requests: [answered(0, 'a', 10, 'worker-0#0', 400), { ...answered(1, 'a', 30, 'worker-0#1', 400), recordsAtArrival: { a: op(['authorized', 'dispatched', 'reconciling', 'dispatched']) } }] }))).toEqual([]);
    expect(checkFailureClassRespected(run({ requests: [answered(0, 'a', 10, 'worker-0#0', 503, { retryAfterMs: 2_000 }), answered(1, 'a', 20, 'worker-0#0', 201, { atMs: 2_010 })] }))).toEqual([]);
    expect(checkFailureClassRespected(run({ requests: [answered(0, 'a', 10, 'worker-0#0', 400)], final: { durable: {}, visible: { a: op(['authorized', 'dispatched', 'failed']) }, files: {} } }))).toEqual([]);
  });
});

describe('failure-class-respected across restarts: the pause and the wait bind the task', () => {
  /** worker-0#0 runs lines 0–15 (at 0 ms, or at 500 ms from line 13 when it lived on), worker-0#1 lines 16–40 (at 3,100 ms). */
  const trace = (livedOn: boolean) => Array.from({ length: 41 }, (_, seq) => ({ seq, actor: 'worker-0', op: 'x', detail: '', incarnation: seq <= 15 ? 0 : 1, timeMs: seq <= 15 ? (livedOn && seq >= 13 ? 500 : 0) : 3_100 }));
  const heard = (status: number, extra: Partial<RequestEvidence> = {}) => answered(0, 'a', 9, 'worker-0#0', status, { atMs: 0, doneSeq: 10, ...extra });
  const recordedAt12 = { a: [{ state: 'authorized', seq: 2, image: 'durable' as const }, { state: 'dispatched', seq: 5, image: 'durable' as const }, { state: 'outcome_unknown', seq: 12, image: 'durable' as const }] };
  const notRecorded = { a: recordedAt12.a.slice(0, 2) };
  const resend = (key: string) => answered(1, key, 30, 'worker-0#1', 201, { atMs: 3_100 });

  test('fires when a later incarnation re-sends before a 503\'s wait ends, once the hearer had recorded the key again', () => {
    const recorded = checkFailureClassRespected(run({ trace: trace(false), observed: recordedAt12, requests: [heard(503, { retryAfterMs: 8_000 }), resend('a')] }));
    expect(recorded.map((x) => [x.key, x.step, x.actual])).toEqual([['a', 30, 'worker-0#1, a later incarnation or another worker, sent it again 3100 ms after (request #1); worker-0#0 heard it and recorded a durably again at #12: it had the chance to keep it where a restart finds it']]);
    expect(recorded[0]?.expected).toBe('a sent again no sooner than 8000 ms after the 503 that asked for that wait (request #0, at 0 ms, heard by worker-0#0), across restarts');
    expect(recorded[0]?.evidence).toMatchObject({ heardBy: 'worker-0#0', sentBy: 'worker-0#1', retryAfterMs: 8_000 });
    // Living on is not enough: time passes on a lease renewal too, and a journal whose record of the answer failed (its lease lost, an I/O error) had nowhere to keep it.
    expect(checkFailureClassRespected(run({ trace: trace(true), observed: notRecorded, requests: [heard(503, { retryAfterMs: 8_000 }), resend('a')] }))).toEqual([]);
  });

  test('fires when a later incarnation writes anything after a 403 its predecessor recorded', () => {
    const v = checkFailureClassRespected(run({ trace: trace(false), observed: recordedAt12, requests: [heard(403), resend('b')] }));
    expect(v.map((x) => [x.key, x.step, x.evidence])).toEqual([['b', 30, { refused: 0, again: 1, heardBy: 'worker-0#0', sentBy: 'worker-0#1' }]]);
  });

  test('a record only in the page cache counts when the crash that killed the hearer kept it (a process kill), not when the hearer died otherwise', () => {
    const visibleAt16 = { a: [...notRecorded.a, { state: 'outcome_unknown', seq: 16, image: 'visible' as const }] };
    const kept = crash(16, { a: op(['authorized', 'dispatched']) }, { a: op(['authorized', 'dispatched', 'outcome_unknown']) }, [], ['worker-0#0']);
    const v = checkFailureClassRespected(run({ trace: trace(false), observed: visibleAt16, crashes: [kept], requests: [heard(503, { retryAfterMs: 8_000 }), resend('a')] }));
    expect(v.map((x) => x.actual)).toEqual(['worker-0#1, a later incarnation or another worker, sent it again 3100 ms after (request #1); worker-0#0 heard it and recorded a again at #16, a record its crash kept: it had the chance to keep it where a restart finds it']);
    // The same crash killing another worker: worker-0#0 ended some other way (an I/O error), and its record never became durable.
    const other = { ...kept, killed: ['worker-1#0'] };
    expect(checkFailureClassRespected(run({ trace: trace(false), observed: visibleAt16, crashes: [other], requests: [heard(503, { retryAfterMs: 8_000 }), resend('a')] }))).toEqual([]);
  });

  test('stays quiet when the hearer died at the moment of hearing, before recording anything, and on a wait kept across the restart', () => {
    expect(checkFailureClassRespected(run({ trace: trace(false), observed: notRecorded, requests: [heard(503, { retryAfterMs: 8_000 }), resend('a')] }))).toEqual([]);
    expect(checkFailureClassRespected(run({ trace: trace(false), observed: notRecorded, requests: [heard(403), resend('b')] }))).toEqual([]);
    expect(checkFailureClassRespected(run({ trace: trace(false), observed: recordedAt12, requests: [heard(503, { retryAfterMs: 3_000 }), resend('a')] }))).toEqual([]);
  });

  describe('only a record written after hearing counts, not one written before and seen since', () => {
    // worker-0#0 wrote dispatched to its page cache before the request (durable: authorized only), heard the answer at #10 and was killed at #16.
    const authorizedOnly = { a: [{ state: 'authorized', seq: 2, image: 'durable' as const }] };
    const killedAt16 = (visible: string[]) => crash(16, { a: op(['authorized']) }, { a: op(visible) }, [], ['worker-0#0']);
    const seenAtTheCrash = (state: string) => ({ a: [...authorizedOnly.a, { state, seq: 16, image: 'visible' as const }] });

    test('a 403 heard by a worker killed before it wrote anything binds no later incarnation (the crash showed dispatched, written before)', () => {
      const input = run({ trace: trace(false), observed: seenAtTheCrash('dispatched'), crashes: [killedAt16(['authorized', 'dispatched'])], requests: [heard(403, { heardHistory: ['authorized', 'dispatched'] }), resend('b')] });
      expect(checkFailureClassRespected(input)).toEqual([]);
      // As judged before heardHistory was kept: the state the crash showed taken for a record written after the 403.
      const { heardHistory: _unknown, ...unknown } = input.requests[0] as RequestEvidence;
      expect(checkFailureClassRespected({ ...input, requests: [unknown, input.requests[1] as RequestEvidence] }).map((x) => x.key)).toEqual(['b']);
    });

    test('the same for a record that turned durable after hearing by an fsync of something else; one written after hearing still binds', () => {
      const durableLater = { a: [...authorizedOnly.a, { state: 'dispatched', seq: 12, image: 'durable' as const }] };
      expect(checkFailureClassRespected(run({ trace: trace(false), observed: durableLater, requests: [heard(503, { retryAfterMs: 8_000, heardHistory: ['authorized', 'dispatched'] }), resend('a')] }))).toEqual([]);
      const writtenAfter = { a: [...durableLater.a, { state: 'outcome_unknown', seq: 14, image: 'durable' as const }] };
      expect(checkFailureClassRespected(run({ trace: trace(false), observed: writtenAfter, requests: [heard(503, { retryAfterMs: 8_000, heardHistory: ['authorized', 'dispatched'] }), resend('a')] })).map((x) => [x.key, x.step])).toEqual([['a', 30]]);
      // And kept by the crash that killed the hearer: outcome_unknown, written after the 403, binds.
      const kept = checkFailureClassRespected(run({ trace: trace(false), observed: { a: [...authorizedOnly.a, { state: 'dispatched', seq: 16, image: 'visible' as const }, { state: 'outcome_unknown', seq: 16, image: 'visible' as const }] }, crashes: [killedAt16(['authorized', 'dispatched', 'outcome_unknown'])], requests: [heard(403, { heardHistory: ['authorized', 'dispatched'] }), resend('b')] }));
      expect(kept.map((x) => x.key)).toEqual(['b']);
    });
  });
});

describe('retry-budget', () => {
  const budget = { scenario: { task: { operations: [{ kind: 'publish' as const, key: 'a', body: 'x' }, { kind: 'publish' as const, key: 'b', body: 'y' }], retryBudget: { perOperation: 2, perTask: 3 } } } };

  test('fires at the first POST past an operation\'s budget and past the task\'s, across senders', () => {
    const requests = [answered(0, 'a', 10, 'worker-0#0', 500), answered(1, 'a', 20, 'worker-0#1', 500), answered(2, 'b', 30, 'worker-0#1', 201), answered(3, 'a', 40, 'worker-0#2', 201)];
    const v = checkRetryBudget(run({ ...budget, requests }));
    expect(v.map((x) => [x.key, x.step, x.expected, x.actual])).toEqual([
      ['a', 40, 'at most 2 POSTs of a at the service, across restarts and workers', 'request #3 from worker-0#2 is POST number 3'],
      ['', 40, 'at most 3 POSTs for the whole task, across restarts and workers', 'request #3 (a) from worker-0#2 is POST number 4'],
    ]);
  });

  test('stays quiet within the budget, and with no budget at all', () => {
    const requests = [answered(0, 'a', 10, 'worker-0#0', 500), answered(1, 'a', 20, 'worker-0#1', 201), answered(2, 'b', 30, 'worker-0#1', 201)];
    expect(checkRetryBudget(run({ ...budget, requests }))).toEqual([]);
    expect(checkRetryBudget(run({ requests: [...requests, answered(3, 'a', 40, 'worker-0#2', 201)] }))).toEqual([]);
  });

  test('convergence lets an operation end blocked once the budget is spent, and not before', () => {
    const spent = { final: { durable: {}, visible: { a: op(['authorized', 'dispatched', 'outcome_unknown', 'reconciling', 'dispatched', 'outcome_unknown', 'reconciling', 'blocked']), b: op(['authorized', 'dispatched', 'succeeded']) }, files: {} } };
    expect(checkConvergence(run({ ...budget, ...spent }))).toEqual([]);
    const early = { final: { durable: {}, visible: { a: op(['authorized', 'dispatched', 'outcome_unknown', 'reconciling', 'blocked']), b: op(['authorized', 'dispatched', 'succeeded']) }, files: {} } };
    expect(checkConvergence(run({ ...budget, ...early })).map((x) => x.key)).toEqual(['a']);
  });

  test('convergence lets a task the service refused with 403 stop where it was', () => {
    const paused = { requests: [answered(0, 'a', 10, 'worker-0#0', 403)], final: { durable: {}, visible: { a: op(['authorized', 'dispatched', 'blocked']) }, files: {} } };
    expect(checkConvergence(run({ ...budget, ...paused }))).toEqual([]);
    expect(checkConvergence(run({ ...budget, final: paused.final })).map((x) => x.key)).toEqual(['a', 'b']);
  });
});
