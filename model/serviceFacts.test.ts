/** Under a contract the judge reads what the service really offers a journal in doubt: a query by receipt is none. */
import { describe, expect, test } from 'vitest';
import { judge } from './judge.js';
import { withServiceFacts } from './serviceFacts.js';
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

  test('with a query by key, a service that promises nothing of its keys (volatile, none, or durasim\'s own protocol) is asked before a re-send: retry-safe-only', () => {
    expect(judge(resent({ queries: [{ by: 'key' }], memory: 'volatile' }), ['retry-safe-only']).map((v) => v.code)).toEqual(['retry-safe-only']);
    expect(judge(resent({ queries: [{ by: 'key' }], memory: 'none' }), ['retry-safe-only']).map((v) => v.code)).toEqual(['retry-safe-only']);
    expect(judge(resent(), ['retry-safe-only']).map((v) => v.code)).toEqual(['retry-safe-only']);
  });

  test('with a query by key, a service whose contract promises to keep its keys is asked by the re-send itself: its replay', () => {
    expect(judge(resent({ queries: [{ by: 'key' }], memory: 'durable' }), ['retry-safe-only', 'no-state-skip', 'no-blind-retry'])).toEqual([]);
  });
});

describe("what a contract promises, in the judge's terms (read off the scenario's contract)", () => {
  const facts = (query: boolean, contract?: { queries: { by: string }[]; memory: string | { ttlMs: number } }) => {
    const seen = withServiceFacts(run({ service: { query, ...(contract ? { contract } : {}) } }));
    return { keyQuery: seen.keyQuery ?? seen.scenario.service.query, ...(seen.keyTtlMs !== undefined ? { keyTtlMs: seen.keyTtlMs } : {}) };
  };

  test('a query by the receipt alone is none for a send in doubt; a key that lives a day says so', () => {
    expect(facts(true, { queries: [{ by: 'receipt' }], memory: { ttlMs: 86_400_000 } })).toEqual({ keyQuery: false, keyTtlMs: 86_400_000 });
  });

  test("a query by the key, or a list filtered by a request field, is one; durasim's own protocol says it with query", () => {
    expect(facts(true, { queries: [{ by: 'key' }], memory: 'durable' })).toEqual({ keyQuery: true });
    expect(facts(false, { queries: [{ by: 'key' }], memory: 'durable' })).toEqual({ keyQuery: false });
    expect(facts(true, { queries: [{ by: 'filter' }], memory: 'durable' }).keyQuery).toBe(true);
    expect(facts(true)).toEqual({ keyQuery: true });
    expect(facts(false)).toEqual({ keyQuery: false });
  });

  test("a contract whose service forgets keys on restart, or keeps none, is the service's memory", () => {
    expect(withServiceFacts(run({ service: { contract: { queries: [], memory: 'volatile' } } })).scenario.service.idempotencyMemory).toBe('volatile');
  });
});
