/** Under a contract the judge reads what the service really offers a journal in doubt: a query by receipt is none. */
import { describe, expect, test } from 'vitest';
import { judge } from './judge.js';
import { crash, D1, op, post, run } from './invariants/fixtures.js';

describe('the service\'s facts under a contract', () => {
  // worker-0#0 sent post a, was killed in doubt (dispatched); worker-0#1 re-sent it without asking.
  const trace = Array.from({ length: 40 }, (_, seq) => (seq === 15 ? { seq, actor: 'supervisor', op: 'start', detail: 'worker-0#1' } : { seq, actor: 'worker-0', op: 'x', detail: '', incarnation: seq < 15 ? 0 : 1 }));
  const resent = (contract?: { queries: { by: string }[]; memory: string }) =>
    run({
      trace,
      service: contract ? { contract } : {},
      crashes: [crash(10, { a: op(['authorized', 'dispatched']) }, { a: op(['authorized', 'dispatched']) }, [], ['worker-0#0'])],
      requests: [{ ...post(0, 'a', D1, 5), sender: 'worker-0#0' }, { ...post(1, 'a', D1, 20), sender: 'worker-0#1' }],
      final: { durable: {}, visible: { a: op(['authorized', 'dispatched', 'succeeded'], { receipt: 'r' }) }, files: {} },
    });

  test('a service whose only query asks by receipt offers no query to a journal in doubt: re-sending to its replay is the way', () => {
    expect(judge(resent({ queries: [{ by: 'receipt' }], memory: 'durable' }), ['retry-safe-only'])).toEqual([]);
  });

  test('with a query by key (or none said: durasim\'s own protocol), the re-send without asking breaks retry-safe-only', () => {
    expect(judge(resent({ queries: [{ by: 'key' }], memory: 'durable' }), ['retry-safe-only']).map((v) => v.code)).toEqual(['retry-safe-only']);
    expect(judge(resent(), ['retry-safe-only']).map((v) => v.code)).toEqual(['retry-safe-only']);
  });
});
