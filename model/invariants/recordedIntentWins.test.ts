import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { checkRecordedIntentWins } from './recordedIntentWins.js';
import { effect, finalRecords, op, run } from './fixtures.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const scenario = { taskAfterRestart: { operations: [{ kind: 'publish' as const, key: 'a', body: 'body two' }] } };

describe('recorded-intent-wins', () => {
  test("fires when succeeded rests on a receipt for the new incarnation's arguments", () => {
    const violations = checkRecordedIntentWins(run({
      scenario: { ...scenario, task: { operations: [{ kind: 'publish', key: 'a', body: 'body one' }] } },
      effects: [effect('a', sha('body two'), 'r1', 5, null)],
      final: finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'succeeded'], { digest: sha('body one'), receipt: 'r1' }) }),
    }));
    expect(violations).toEqual([expect.objectContaining({ code: 'recorded-intent-wins', key: 'a' })]);
    expect(violations[0]?.evidence).toMatchObject({ recordedDigest: sha('body one'), newArgumentsDigest: sha('body two') });
  });

  test('holds when the receipt is for the recorded intent', () => {
    expect(checkRecordedIntentWins(run({
      scenario: { ...scenario, task: { operations: [{ kind: 'publish', key: 'a', body: 'body one' }] } },
      effects: [effect('a', sha('body one'), 'r1', 5)],
      final: finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'succeeded'], { digest: sha('body one'), receipt: 'r1' }) }),
    }))).toEqual([]);
  });
});
