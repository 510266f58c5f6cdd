/**
 * The reference journal against every invariant, swarm style: each run draws its own fault mix
 * (which families are on, how many crashes, which crash modes, which response faults), so some
 * runs hammer one fault and others combine them. Safety and liveness are judged apart.
 */
import { test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { judge } from '../model/judge.js';
import { describeViolation, type InvariantCode } from '../model/violation.js';
import { FAULT_KINDS, scenarioArbitrary, type FaultKind } from '../src/arbitraries.js';
import { referenceJournal } from '../src/journals/reference.js';
import { simulate } from '../simulator/simulate.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

export const FAMILIES: { name: string; codes: InvariantCode[]; faults: readonly FaultKind[]; seed: number }[] = [
  { name: 'exactly once', codes: ['one-effect-per-key', 'single-flight', 'no-blind-retry', 'completed-replayed', 'retry-safe-only'], faults: ['crash', 'disk', 'response', 'duplicate', 'service-restart', 'intent'], seed: 101 },
  { name: 'records tell the truth', codes: ['no-state-skip', 'write-ahead', 'truthful-outcome', 'recorded-intent-wins'], faults: FAULT_KINDS, seed: 202 },
  { name: 'files tell the truth, user edits survive', codes: ['file-truth', 'no-silent-overwrite'], faults: ['user', 'crash', 'disk', 'duplicate'], seed: 303 },
  { name: 'convergence (liveness)', codes: ['convergence'], faults: FAULT_KINDS, seed: 404 },
];

describe('the reference journal keeps every invariant', () => {
  // 400 runs a family (was 800): at these seeds, every mutant tried in its family's place fails within them — resend-instead-of-query
  // (run 3) and timeout-means-failed (247: not within 200) for exactly once; send-before-dispatched, no-fsync, succeeded-before-receipt,
  // new-process-args (1, 1, 16, 58) for the records; unsynced-delivery, blind-overwrite (2, 2) for the files; torn-tail-fatal,
  // registers-after-create, deletion-not-synced (20, 7, 91) for convergence. The mutant gate hunts every mutant (npm run mutants).
  for (const family of FAMILIES) {
    test.prop([scenarioArbitrary({ faults: family.faults })], { numRuns: runs(400), seed: seed(family.seed) })(
      `${family.name}: ${family.codes.join(', ')}`,
      async (scenario) => {
        const result = await simulate(referenceJournal, scenario);
        expect(judge(result, family.codes).map(describeViolation)).toEqual([]);
      },
      PROPERTY_TIMEOUT_MS,
    );
  }
});
