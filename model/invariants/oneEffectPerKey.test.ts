import { describe, expect, test } from 'vitest';
import { checkOneEffectPerKey } from './oneEffectPerKey.js';
import { D1, D2, effect, finalRecords, op, run } from './fixtures.js';

describe('one-effect-per-key', () => {
  test('fires on a second effect for the key', () => {
    const violations = checkOneEffectPerKey(run({
      effects: [effect('a', D1, 'r1', 10, 0), effect('a', D1, 'r2', 30, 2)],
      final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded'], { receipt: 'r1' }) }),
    }));
    expect(violations).toEqual([expect.objectContaining({ code: 'one-effect-per-key', key: 'a', step: 30, actual: '2 effects (receipts r1, r2)' })]);
    expect(violations[0]?.evidence.effects).toHaveLength(2);
  });

  test('fires on an effect whose digest is not the authorized intent', () => {
    const violations = checkOneEffectPerKey(run({ effects: [effect('a', D2, 'r1', 10)], final: finalRecords({ a: op(['authorized', 'dispatched']) }) }));
    expect(violations).toEqual([expect.objectContaining({ code: 'one-effect-per-key', key: 'a', step: 10 })]);
  });

  test('holds for one effect of the authorized intent, and ignores effects from before the run', () => {
    expect(checkOneEffectPerKey(run({ effects: [effect('a', D1, 'r1', 10)], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }))).toEqual([]);
    expect(checkOneEffectPerKey(run({ effects: [effect('b', D2, 'r0', 0, null)], final: finalRecords({ b: op(['authorized', 'dispatched', 'conflict']) }) }))).toEqual([]);
    expect(checkOneEffectPerKey(run({ effects: [effect('a', D2, 'r0', 0, null), effect('a', D1, 'r1', 9, 0)], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }))).toEqual([]);
  });
});
