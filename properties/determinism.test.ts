import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { scenarioArbitrary } from '../src/arbitraries.js';
import { referenceJournal } from '../src/journals/reference.js';
import { simulate } from '../simulator/simulate.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

describe('determinism', () => {
  // (300 pairs here; every check re-runs its findings and a sample of runs, and CI replays the whole trace-hash corpus.)
  test.prop([scenarioArbitrary()], { numRuns: runs(300), seed: seed(20261130) })(
    'the same scenario simulated twice gives the same trace hash',
    async (scenario) => {
      const first = await simulate(referenceJournal, scenario);
      const second = await simulate(referenceJournal, structuredClone(scenario));
      expect(second.traceHash).toBe(first.traceHash);
      expect(second.effects).toEqual(first.effects);
      expect(second.trace.length).toBe(first.trace.length);
    },
    PROPERTY_TIMEOUT_MS,
  );

  test.prop([scenarioArbitrary()], { numRuns: runs(200), seed: seed(7) })(
    'msw and direct transports give the same trace (the fast path is equivalent to msw)',
    async (scenario) => {
      const direct = await simulate(referenceJournal, scenario, { transport: 'direct' });
      const viaMsw = await simulate(referenceJournal, scenario, { transport: 'msw' });
      expect(viaMsw.traceHash).toBe(direct.traceHash);
    },
    PROPERTY_TIMEOUT_MS,
  );

  test('a property run is not vacuous: scenarios differ and faults fire', () => {
    const samples = fc.sample(scenarioArbitrary(), { numRuns: 200, seed: 1 });
    const kinds = new Set(samples.flatMap((s) => s.faults.map((f) => f.kind)));
    expect([...kinds].sort()).toEqual(['cancel', 'concurrent-call', 'crash', 'duplicate-delivery', 'input-change', 'io-error', 'pause', 'response', 'service-restart', 'store-call', 'store-edit', 'store-restart', 'takeover', 'user-edit']);
  });
});
