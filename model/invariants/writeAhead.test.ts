import { describe, expect, test } from 'vitest';
import { checkWriteAhead } from './writeAhead.js';
import { D1, D2, op, post, run } from './fixtures.js';

describe('write-ahead', () => {
  test('fires when the request arrives before dispatched is durable', () => {
    const violations = checkWriteAhead(run({ requests: [post(0, 'a', D1, 12, { a: op(['authorized']) })] }));
    expect(violations).toEqual([expect.objectContaining({ code: 'write-ahead', key: 'a', step: 12, actual: `durable history [authorized] with digest ${D1.slice(0, 12)}` })]);
    expect(violations[0]?.evidence).toMatchObject({ durableHistory: ['authorized'] });
  });

  test('fires when nothing is durable, and when the digest differs from the recorded intent', () => {
    expect(checkWriteAhead(run({ requests: [post(0, 'a', D1, 12, {})] }))[0]?.actual).toBe('no durable record of the key');
    expect(checkWriteAhead(run({ requests: [post(0, 'a', D2, 12, { a: op(['authorized', 'dispatched']) })] }))).toHaveLength(1);
  });

  test('holds when authorized and dispatched are durable with the digest', () => {
    expect(checkWriteAhead(run({ requests: [post(0, 'a', D1, 12, { a: op(['authorized', 'dispatched']) })] }))).toEqual([]);
  });
});

describe('write-ahead for a journal that reports its current state', () => {
  test('holds when authorized was observed durable before dispatched, fires when it never was', () => {
    const dispatched = { a: { kind: 'operation' as const, history: ['dispatched'], reported: 'state' as const, digest: D1 } };
    const observed = { a: [{ state: 'authorized', seq: 2, image: 'durable' as const }, { state: 'dispatched', seq: 4, image: 'durable' as const }] };
    expect(checkWriteAhead(run({ observed, requests: [post(0, 'a', D1, 6, dispatched)] }))).toEqual([]);
    expect(checkWriteAhead(run({ observed: { a: [observed.a[1]!] }, requests: [post(0, 'a', D1, 6, dispatched)] }))).toEqual([expect.objectContaining({ code: 'write-ahead', key: 'a' })]);
  });
});
