import { describe, expect, test } from 'vitest';
import { checkNoStateSkip } from './noStateSkip.js';
import { crash, D1, finalRecords, observedRun, op, post, run } from './fixtures.js';

const state = (s: string) => ({ kind: 'operation' as const, history: [s], reported: 'state' as const, digest: 'd' });
const seen = (...states: [string, number][]) => states.map(([s, seq]) => ({ state: s, seq, image: 'durable' as const }));

describe('no-state-skip', () => {
  test('fires on succeeded without dispatched', () => {
    const violations = checkNoStateSkip(run({ final: finalRecords({ a: op(['authorized', 'succeeded']) }) }));
    expect(violations).toEqual([expect.objectContaining({ code: 'no-state-skip', key: 'a', actual: 'authorized → succeeded' })]);
    expect(violations[0]?.evidence).toMatchObject({ history: ['authorized', 'succeeded'], index: 1 });
  });

  test('fires on dispatched without authorized', () => {
    expect(checkNoStateSkip(run({ final: finalRecords({ a: op(['dispatched', 'succeeded']) }) }))).toEqual([
      expect.objectContaining({ code: 'no-state-skip', key: 'a', actual: 'it starts at dispatched' }),
    ]);
  });

  test('fires when recovery from dispatched skips reconciling after a crash, marked where the skip shows', () => {
    const atCrash = { a: op(['authorized', 'dispatched']) };
    const violations = checkNoStateSkip(observedRun({ crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }));
    expect(violations).toEqual([expect.objectContaining({ code: 'no-state-skip', key: 'a', step: 99, actual: 'dispatched → succeeded' })]);
  });

  test('a repeated dispatched (a re-send with no reconciling between) is marked at the re-send, not at the first, legitimate dispatched', () => {
    const history = ['authorized', 'dispatched', 'dispatched', 'succeeded'];
    const requests = [
      { index: 0, method: 'POST', route: { kind: 'publish', key: 'a' }, status: 201, seq: 21, recordsAtArrival: { a: op(['authorized', 'dispatched']) } },
      { index: 1, method: 'POST', route: { kind: 'publish', key: 'a' }, status: 200, seq: 52, recordsAtArrival: { a: op(['authorized', 'dispatched', 'dispatched']) } },
    ];
    const observed = { a: seen(['authorized', 10], ['dispatched', 20], ['succeeded', 90]) };
    const violations = checkNoStateSkip(run({ requests: requests as never, observed, final: finalRecords({ a: op(history) }) }));
    expect(violations).toEqual([expect.objectContaining({ code: 'no-state-skip', key: 'a', step: 52, actual: 'dispatched → dispatched' })]);
    // With no request to show it, the second observation of dispatched, if there is one; else the image it was read from.
    const twice = { a: seen(['authorized', 10], ['dispatched', 20], ['dispatched', 47], ['succeeded', 90]) };
    expect(checkNoStateSkip(run({ observed: twice, final: finalRecords({ a: op(history) }) }))[0]?.step).toBe(47);
    expect(checkNoStateSkip(run({ observed, final: finalRecords({ a: op(history) }) }))[0]?.step).toBe(99);
  });

  test('holds for a recovery through reconciling, and when a surviving worker simply went on', () => {
    const atCrash = { a: op(['authorized', 'dispatched']) };
    expect(checkNoStateSkip(observedRun({ crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'succeeded']) }) }))).toEqual([]);
    expect(checkNoStateSkip(observedRun({ crashes: [crash(40, atCrash, atCrash, ['worker-1#0'])], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }))).toEqual([]);
  });

  describe('a retry-safe call (a lookup, or a write marked retrySafe) is simply sent again after a crash', () => {
    const lookup = [{ kind: 'lookup' as const, key: 'a', resource: 'config' }];
    const safeWrite = [{ kind: 'publish' as const, key: 'a', body: 'x', retrySafe: true }];
    test('holds for dispatched → dispatched → succeeded across a crash, recorded or observed', () => {
      for (const operations of [lookup, safeWrite]) {
        const atCrash = { a: op(['authorized', 'dispatched']) };
        expect(checkNoStateSkip(observedRun({ operations, crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'dispatched', 'succeeded']) }) }))).toEqual([]);
        expect(checkNoStateSkip(observedRun({ operations, crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }))).toEqual([]);
        const observed = { a: seen(['authorized', 3], ['dispatched', 5], ['outcome_unknown', 7], ['dispatched', 50], ['succeeded', 60]) };
        expect(checkNoStateSkip(run({ operations, observed, crashes: [crash(40, { a: state('outcome_unknown') })], final: finalRecords({ a: state('succeeded') }) }))).toEqual([]);
      }
    });
    test('still fires for a write that is not retry-safe, and for a retry-safe call that skips a state', () => {
      const atCrash = { a: op(['authorized', 'dispatched']) };
      expect(checkNoStateSkip(observedRun({ crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'dispatched', 'succeeded']) }) }))).toEqual([
        expect.objectContaining({ code: 'no-state-skip', key: 'a', actual: 'dispatched → dispatched' }),
      ]);
      expect(checkNoStateSkip(observedRun({ operations: lookup, final: finalRecords({ a: op(['authorized', 'succeeded']) }) }))).toEqual([
        expect.objectContaining({ code: 'no-state-skip', key: 'a', actual: 'authorized → succeeded' }),
      ]);
      expect(checkNoStateSkip(observedRun({ operations: lookup, final: finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'outcome_unknown', 'succeeded']) }) }))).toEqual([
        expect.objectContaining({ code: 'no-state-skip', key: 'a', actual: 'outcome_unknown → succeeded' }),
      ]);
    });
  });

  describe("a write to a service whose contract promises to keep its keys is reconciled by sending it again under the key", () => {
    const atCrash = { a: op(['authorized', 'dispatched']) };
    const under = (memory: string | { ttlMs: number }, idempotencyMemory: 'durable' | 'volatile' = 'durable') => ({ service: { idempotencyMemory, contract: { queries: [{ by: 'key' }], memory } } });
    test('holds for dispatched → dispatched → succeeded across a crash, durable or for a time-to-live', () => {
      for (const memory of ['durable', { ttlMs: 86_400_000 }]) {
        // Recorded: the re-send shows as dispatched again; seen only at the crash and the end, it shows by the send itself.
        const resend = [post(0, 'a', D1, 10), post(1, 'a', D1, 50)];
        expect(checkNoStateSkip(observedRun({ ...under(memory), requests: resend, crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'dispatched', 'succeeded']) }) }))).toEqual([]);
        expect(checkNoStateSkip(observedRun({ ...under(memory), requests: resend, crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }))).toEqual([]);
        // A send again that got no answer leaves it in doubt: outcome_unknown, no claim.
        const lost = { a: seen(['authorized', 3], ['dispatched', 5], ['outcome_unknown', 60]) };
        expect(checkNoStateSkip(run({ ...under(memory), observed: lost, crashes: [crash(40, { a: state('dispatched') })], final: finalRecords({ a: state('outcome_unknown') }) }))).toEqual([]);
        // ... with no send after the crash, the same end is a verdict nobody asked for.
        expect(checkNoStateSkip(observedRun({ ...under(memory), requests: resend.slice(0, 1), crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }))).toHaveLength(1);
        const observed = { a: seen(['authorized', 3], ['dispatched', 5], ['dispatched', 50], ['succeeded', 60]) };
        expect(checkNoStateSkip(run({ ...under(memory), observed, crashes: [crash(40, { a: state('dispatched') })], final: finalRecords({ a: state('succeeded') }) }))).toEqual([]);
      }
    });
    test('still fires straight from doubt to a verdict after a crash (nothing was asked), and where the service promises nothing', () => {
      const observed = { a: seen(['authorized', 3], ['dispatched', 5], ['succeeded', 60]) };
      expect(checkNoStateSkip(run({ ...under('durable'), observed, crashes: [crash(40, { a: state('dispatched') })], final: finalRecords({ a: state('succeeded') }) }))).toEqual([
        expect.objectContaining({ code: 'no-state-skip', key: 'a', actual: expect.stringContaining('succeeded') }),
      ]);
      const resent = { crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'dispatched', 'succeeded']) }) };
      for (const promise of [under('volatile', 'volatile'), under('durable', 'volatile'), {}]) {
        expect(checkNoStateSkip(observedRun({ ...promise, ...resent }))).toEqual([expect.objectContaining({ code: 'no-state-skip', key: 'a', actual: 'dispatched → dispatched' })]);
      }
    });
  });

  test('checks file histories too', () => {
    expect(checkNoStateSkip(run({ final: finalRecords({ e: { kind: 'file', path: 'n', history: ['applied'], preserved: [] } }) }))).toEqual([
      expect.objectContaining({ code: 'no-state-skip', key: 'e' }),
    ]);
  });

  describe('on observed histories (a journal that reports its current state only)', () => {
    test('holds for a current-state journal that walks the model one durable state at a time', () => {
      const observed = { a: seen(['authorized', 3], ['dispatched', 5], ['succeeded', 9]) };
      expect(checkNoStateSkip(run({ observed, final: finalRecords({ a: state('succeeded') }) }))).toEqual([]);
    });

    test('fires when a durable state jumps over one, at the step where the jump became durable', () => {
      const observed = { a: seen(['authorized', 3], ['succeeded', 9]) };
      expect(checkNoStateSkip(run({ observed, final: finalRecords({ a: state('succeeded') }) }))).toEqual([
        expect.objectContaining({ code: 'no-state-skip', key: 'a', step: 9, actual: 'authorized → succeeded' }),
      ]);
    });

    test('fires when recovery after a crash goes from dispatched straight to succeeded', () => {
      const observed = { a: seen(['authorized', 3], ['dispatched', 5], ['succeeded', 60]) };
      const violations = checkNoStateSkip(run({ observed, crashes: [crash(40, { a: state('dispatched') })], final: finalRecords({ a: state('succeeded') }) }));
      expect(violations).toEqual([expect.objectContaining({ code: 'no-state-skip', key: 'a', step: 60, actual: 'dispatched → succeeded' })]);
      expect(violations[0]?.expected).toBe('recovery from dispatched after crash 1 to pass through reconciling');
    });

    test('a record deleted after a terminal state is allowed; deleted while in doubt, or anything after deletion, is a skip', () => {
      expect(checkNoStateSkip(run({ observed: { a: seen(['authorized', 1], ['dispatched', 2], ['succeeded', 3], ['absent', 4]) } }))).toEqual([]);
      expect(checkNoStateSkip(run({ observed: { a: seen(['authorized', 1], ['dispatched', 2], ['absent', 4]) } }))).toEqual([
        expect.objectContaining({ key: 'a', step: 4, actual: 'dispatched → absent (the record was deleted)' }),
      ]);
      expect(checkNoStateSkip(run({ observed: { a: seen(['authorized', 1], ['failed', 2], ['absent', 4], ['authorized', 7]) } }))).toEqual([
        expect.objectContaining({ key: 'a', step: 7, actual: 'absent → authorized' }),
      ]);
    });
  });
});
