import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { scenarioArbitrary } from '../src/arbitraries.js';
import { referenceJournal } from '../src/journals/reference.js';
import { coordinatedJournal } from '../src/journals/coordinated.js';
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

  // Both built-in journals, drawn in turn: the reference sends no fencing token, so a credential the
  // msw path lost would change nothing it sees; the coordinated journal's tokens are checked by the
  // service (a dropped token admits a stale holder). Shown: the msw handlers passing no credentials to
  // the service gave the same trace for 200 reference runs and a different one for the coordinated.
  test.prop([fc.constantFrom('reference', 'coordinated'), scenarioArbitrary()], { numRuns: runs(200), seed: seed(7) })(
    'msw and direct transports give the same trace and the same requests (the fast path is equivalent to msw)',
    async (name, scenario) => {
      const journal = name === 'reference' ? referenceJournal : coordinatedJournal;
      const direct = await simulate(journal, scenario, { transport: 'direct' });
      const viaMsw = await simulate(journal, scenario, { transport: 'msw' });
      expect(viaMsw.traceHash).toBe(direct.traceHash);
      expect(viaMsw.requests).toEqual(direct.requests);
    },
    PROPERTY_TIMEOUT_MS,
  );

  test('a property run is not vacuous: scenarios differ and faults fire', () => {
    const samples = fc.sample(scenarioArbitrary(), { numRuns: 200, seed: 1 });
    const kinds = new Set(samples.flatMap((s) => s.faults.map((f) => f.kind)));
    expect([...kinds].sort()).toEqual(['cancel', 'concurrent-call', 'crash', 'duplicate-delivery', 'input-change', 'io-error', 'pause', 'response', 'service-restart', 'store-call', 'store-edit', 'store-restart', 'takeover', 'user-edit']);
  });
});
