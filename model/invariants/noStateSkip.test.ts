import { describe, expect, test } from 'vitest';
import { checkNoStateSkip } from './noStateSkip.js';
import { crash, finalRecords, op, run } from './fixtures.js';

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

  test('fires when recovery from dispatched skips reconciling after a crash', () => {
    const atCrash = { a: op(['authorized', 'dispatched']) };
    const violations = checkNoStateSkip(run({ crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }));
    expect(violations).toEqual([expect.objectContaining({ code: 'no-state-skip', key: 'a', step: 40, actual: 'dispatched → succeeded' })]);
  });

  test('holds for a recovery through reconciling, and when a surviving worker simply went on', () => {
    const atCrash = { a: op(['authorized', 'dispatched']) };
    expect(checkNoStateSkip(run({ crashes: [crash(40, atCrash)], final: finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'succeeded']) }) }))).toEqual([]);
    expect(checkNoStateSkip(run({ crashes: [crash(40, atCrash, atCrash, ['worker-1#0'])], final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }))).toEqual([]);
  });

  test('checks file histories too', () => {
    expect(checkNoStateSkip(run({ final: finalRecords({ e: { kind: 'file', path: 'n', history: ['applied'], preserved: [] } }) }))).toEqual([
      expect.objectContaining({ code: 'no-state-skip', key: 'e' }),
    ]);
  });
});
