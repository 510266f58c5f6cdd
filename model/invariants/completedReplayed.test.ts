import { describe, expect, test } from 'vitest';
import { checkCompletedReplayed } from './completedReplayed.js';
import { D1, op, post, run } from './fixtures.js';

describe('completed-replayed', () => {
  test('fires on a request made after succeeded was durable', () => {
    const violations = checkCompletedReplayed(run({ requests: [post(3, 'a', D1, 50, { a: op(['authorized', 'dispatched', 'succeeded']) })] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'completed-replayed', key: 'a', step: 50 })]);
  });

  test('fires on a lookup read again after it succeeded', () => {
    const read = { index: 4, atMs: 0, method: 'GET', route: { kind: 'resource', name: 'config' }, status: 200, seq: 60, recordsAtArrival: { l: op(['authorized', 'dispatched', 'succeeded']) } };
    expect(checkCompletedReplayed(run({ operations: [{ kind: 'lookup', key: 'l', resource: 'config' }], requests: [read] }))).toEqual([
      expect.objectContaining({ code: 'completed-replayed', key: 'l' }),
    ]);
  });

  test('holds when the request came before succeeded', () => {
    expect(checkCompletedReplayed(run({ requests: [post(0, 'a', D1, 5, { a: op(['authorized', 'dispatched']) })] }))).toEqual([]);
  });

  describe('a read decided before the completion', () => {
    const lookup = [{ kind: 'lookup' as const, key: 'l', resource: 'config' }];
    const trace = Array.from({ length: 100 }, (_, seq) => ({ seq, actor: 'worker-0', op: 'clock.now', detail: '' }));
    trace[0] = { seq: 0, actor: 'supervisor', op: 'start', detail: 'worker-0#0' };
    trace[10] = { seq: 10, actor: 'supervisor', op: 'start', detail: 'worker-1#0' };
    trace[70] = { seq: 70, actor: 'supervisor', op: 'start', detail: 'worker-0#1' };
    const observed = { l: [{ state: 'authorized', seq: 20, image: 'durable' as const }, { state: 'succeeded', seq: 40, image: 'durable' as const }] };
    const read = (index: number, seq: number, sender: string) => ({ index, atMs: 0, method: 'GET', route: { kind: 'resource', name: 'config' }, status: 200, seq, sender, recordsAtArrival: { l: op(['authorized', 'dispatched', 'succeeded']) } });

    test('is excused from a worker that was running when another completed it, and had not read it (paused past its lease)', () => {
      expect(checkCompletedReplayed(run({ operations: lookup, trace, observed, requests: [read(0, 30, 'worker-1#0'), read(1, 50, 'worker-0#0')] }))).toEqual([]);
    });

    test('still fires for the same incarnation reading again, and for one started after the completion', () => {
      const again = checkCompletedReplayed(run({ operations: lookup, trace, observed, requests: [read(0, 15, 'worker-0#0'), read(1, 50, 'worker-0#0')] }));
      expect(again).toEqual([expect.objectContaining({ code: 'completed-replayed', key: 'l', step: 50 })]);
      const later = checkCompletedReplayed(run({ operations: lookup, trace, observed, requests: [read(0, 80, 'worker-0#1')] }));
      expect(later).toEqual([expect.objectContaining({ code: 'completed-replayed', key: 'l', step: 80 })]);
    });
  });
});
