import { describe, expect, test } from 'vitest';
import { checkTruthfulOutcome } from './truthfulOutcome.js';
import { crash, D1, D2, effect, finalRecords, op, run } from './fixtures.js';

describe('truthful-outcome', () => {
  test('fires on succeeded when the service holds no such effect', () => {
    const violations = checkTruthfulOutcome(run({ final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded'], { receipt: 'r1' }) }) }));
    expect(violations).toEqual([expect.objectContaining({ code: 'truthful-outcome', key: 'a', actual: 'the service holds no effect for the key' })]);
  });

  test('fires on succeeded with a receipt for another digest', () => {
    const violations = checkTruthfulOutcome(run({
      effects: [effect('a', D2, 'r1', 5)],
      final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded'], { receipt: 'r1' }) }),
    }));
    expect(violations[0]).toMatchObject({ code: 'truthful-outcome', key: 'a' });
    expect(violations[0]?.evidence).toMatchObject({ recordedDigest: D1, recordedReceipt: 'r1' });
  });

  test('fires on conflict when the service holds only the recorded intent', () => {
    expect(checkTruthfulOutcome(run({ effects: [effect('a', D1, 'r1', 5)], final: finalRecords({ a: op(['authorized', 'dispatched', 'conflict']) }) }))).toEqual([
      expect.objectContaining({ code: 'truthful-outcome', key: 'a', expected: 'the service to hold another intent under a' }),
    ]);
  });

  test('fires after a crash when the durable image forgot a dispatch the service committed', () => {
    const violations = checkTruthfulOutcome(run({
      effects: [effect('a', D1, 'r1', 5)],
      crashes: [crash(8, { a: op(['authorized']) })],
      final: finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'succeeded'], { receipt: 'r1' }) }),
    }));
    expect(violations).toEqual([expect.objectContaining({ code: 'truthful-outcome', key: 'a', step: 8, expected: 'no effect for a key never recorded dispatched' })]);
  });

  test('fires on a lookup whose receipt is not the resource value, and on a file conflict nobody caused', () => {
    const lookup = run({ operations: [{ kind: 'lookup', key: 'l', resource: 'config' }], final: finalRecords({ l: op(['authorized', 'dispatched', 'succeeded'], { receipt: 'v9' }) }) });
    expect(checkTruthfulOutcome(lookup)).toEqual([expect.objectContaining({ code: 'truthful-outcome', key: 'l' })]);
    const file = run({ final: finalRecords({ e: { kind: 'file', path: 'n.md', history: ['read', 'conflict'], preserved: [''] } }) });
    expect(checkTruthfulOutcome(file)).toEqual([expect.objectContaining({ code: 'truthful-outcome', key: 'e' })]);
  });

  test('holds for true claims', () => {
    expect(checkTruthfulOutcome(run({
      effects: [effect('a', D1, 'r1', 5), effect('b', D2, 'r0', 0, null)],
      operations: [{ kind: 'publish', key: 'a', body: 'x' }, { kind: 'publish', key: 'b', body: 'y' }],
      final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded'], { receipt: 'r1' }), b: op(['authorized', 'dispatched', 'conflict']) }),
    }))).toEqual([]);
  });
});

describe('truthful-outcome on failed', () => {
  test('fires when a publish ends failed while the service holds an effect of the recorded intent (a timed-out request that committed)', () => {
    const violations = checkTruthfulOutcome(run({
      effects: [effect('a', D1, 'r1', 5)],
      final: finalRecords({ a: op(['authorized', 'dispatched', 'failed']) }),
    }));
    expect(violations).toEqual([expect.objectContaining({ code: 'truthful-outcome', key: 'a', expected: 'failed only for an intent the service does not hold', actual: 'the service holds a with the recorded intent (digest ' + D1.slice(0, 12) + ', receipt "r1")' })]);
  });

  test('holds when failed has no effect of its intent behind it: none at all, or only another intent under the key', () => {
    expect(checkTruthfulOutcome(run({ final: finalRecords({ a: op(['authorized', 'dispatched', 'failed']) }) }))).toEqual([]);
    expect(checkTruthfulOutcome(run({ effects: [effect('a', D2, 'r1', 5)], final: finalRecords({ a: op(['authorized', 'dispatched', 'failed']) }) }))).toEqual([]);
  });

  test('holds when the journal heard a refusal for the key, even where the service had committed an earlier request (a reset, then a 400 on the retry)', () => {
    const refusal = { index: 1, atMs: 10, method: 'POST', route: { kind: 'publish', key: 'a' }, digest: D1, status: 400, seq: 9, doneSeq: 10, sender: 'worker-0#0', answered: true };
    expect(checkTruthfulOutcome(run({ effects: [effect('a', D1, 'r1', 5)], requests: [refusal], final: finalRecords({ a: op(['authorized', 'dispatched', 'failed']) }) }))).toEqual([]);
    expect(checkTruthfulOutcome(run({ effects: [effect('a', D1, 'r1', 5)], requests: [{ ...refusal, answered: false }], final: finalRecords({ a: op(['authorized', 'dispatched', 'failed']) }) }))).toHaveLength(1);
  });
});
