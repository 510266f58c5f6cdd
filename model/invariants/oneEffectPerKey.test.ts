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

describe('one-effect-per-key under a key time-to-live (a contract\'s)', () => {
  // worker-0#0 sends at 0 (effect r1); it looks at the clock at `lookMs`, then its send again arrives a day and a second later (r2).
  const DAY = 86_400_000;
  const frozenRun = (lookMs: number) => {
    const trace = Array.from({ length: 100 }, (_, seq) => ({ seq, actor: 'worker-0', op: 'fh.sync', detail: '', incarnation: 0, timeMs: seq < 40 ? 1 : DAY + 1_000 }));
    trace[35] = { ...trace[35], op: 'Date.now', timeMs: lookMs } as (typeof trace)[number];
    const send = (index: number, seq: number, atMs: number) => ({ index, atMs, method: 'POST', route: { kind: 'publish', key: 'a' }, digest: D1, status: 201, seq, sender: 'worker-0#0' });
    return run({
      keyTtlMs: DAY,
      trace,
      requests: [send(0, 10, 0), send(1, 60, DAY + 1_000)],
      effects: [{ ...effect('a', D1, 'r1', 10, 0), atMs: 0 }, { ...effect('a', D1, 'r2', 60, 1), atMs: DAY + 1_000 }],
      final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded'], { receipt: 'r2' }) }),
    });
  };

  test('a second effect is not the journal\'s when its sender decided in time and was frozen on its way (the key forgotten meanwhile); it is when it decided after', () => {
    expect(checkOneEffectPerKey(frozenRun(1))).toEqual([]);
    expect(checkOneEffectPerKey(frozenRun(DAY + 500))).toEqual([expect.objectContaining({ code: 'one-effect-per-key', key: 'a', actual: '2 effects (receipts r1, r2)' })]);
  });
});
