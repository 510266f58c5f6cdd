import { describe, expect, test } from 'vitest';
import * as durasim from './index.js';
import * as internals from './internals.js';

describe('public API', () => {
  test('exports what users build on', () => {
    for (const name of ['simulate', 'traceHash', 'scenarioArbitrary', 'referenceJournal', 'coordinatedJournal', 'judge', 'verdict', 'realEnv', 'parseScenario', 'StoreTimeoutError', 'checkJournal']) {
      expect(durasim, name).toHaveProperty(name);
    }
    for (const name of ['serviceHandlers', 'DEFAULT_STORE', 'WorkerPool']) expect(internals, name).toHaveProperty(name);
    expect(durasim.INVARIANT_CODES).toEqual([
      'one-effect-per-key', 'single-flight', 'no-silent-overwrite', 'no-state-skip', 'file-truth', 'write-ahead', 'truthful-outcome',
      'recorded-intent-wins', 'no-blind-retry', 'completed-replayed', 'retry-safe-only', 'single-advancer', 'fenced-effects', 'cas-loser-stops',
      'takeover-exclusive', 'projection-consistent', 'no-secret-persisted', 'failure-class-respected', 'retry-budget', 'no-effect-after-cancel', 'cancel-truth', 'version-change-pauses', 'cleanup-owned-only', 'routed-requests', 'fault-free-effects', 'evidence-retained', 'convergence', 'journal-error',
    ]);
  });

  test('a simulation result is what the judge reads', async () => {
    const result = await durasim.simulate(durasim.referenceJournal, durasim.baseScenario());
    expect(durasim.judge(result)).toEqual([]);
    expect(result.traceHash).toBe(durasim.traceHash(result.trace, result.payloadDigest));
  });
});
