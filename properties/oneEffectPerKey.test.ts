import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { scenarioArbitrary } from '../src/arbitraries.js';
import { referenceJournal } from '../src/journals/reference.js';
import { simulate } from '../simulator/simulate.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

describe('the reference journal under crashes, response faults, duplicate deliveries and user edits', () => {
  test.prop([scenarioArbitrary({ faults: ['crash', 'disk', 'response', 'duplicate', 'user'] })], { numRuns: runs(1000), seed: seed(4242) })(
    'makes at most one effect per key',
    async (scenario) => {
      const result = await simulate(referenceJournal, scenario);
      const perKey = new Map<string, number>();
      for (const effect of result.effects) perKey.set(effect.key, (perKey.get(effect.key) ?? 0) + 1);
      for (const [key, count] of perKey) expect(count, `effects for ${key}`).toBeLessThanOrEqual(1);
      expect(result.outcome).toEqual({ kind: 'completed' });
    },
    PROPERTY_TIMEOUT_MS,
  );
});
