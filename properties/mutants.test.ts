/**
 * The mutant corpus is durasim's own regression gate: every mutant must be killed within the
 * budget by the property suite, each for a reason its defect explains, and shrunk to a
 * counterexample close to the hand-minimal one (within one fault and 25% of the steps).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { judge } from '../model/judge.js';
import { MUTANTS } from '../src/journals/mutants/index.js';
import { referenceJournal } from '../src/journals/reference.js';
import { MUTANT_BUDGET, mutantSeed } from '../src/mutantsMain.js';
import { bundledJournal } from '../src/isolation/journalRef.js';
import { huntJournal } from '../src/mutation.js';
import { WorkerPool } from '../src/pool/workerPool.js';
import { parseScenarioText } from '../simulator/scenario.js';
import { simulate } from '../simulator/simulate.js';
import { PROPERTY_TIMEOUT_MS } from './budgets.js';

// The hunts run as `durasim check` runs them: in worker threads, modules fresh per incarnation.
const pool = new WorkerPool({ workers: 2 });
afterAll(() => pool.close());

const minimal = (name: string) => parseScenarioText(readFileSync(new URL(`../reports/mutants/minimal/${name}.json`, import.meta.url), 'utf8'));

describe('the mutant corpus', () => {
  test('has thirteen mutants with distinct names', () => {
    expect(new Set(MUTANTS.map((m) => m.journal.name)).size).toBe(13);
  });

  describe.each(MUTANTS.map((m, i) => [m.journal.name, m, i] as const))('%s', (name, mutant, index) => {
    test('its hand-minimal scenario exposes it, and the reference journal passes it', async () => {
      const scenario = minimal(name);
      const fired = new Set(judge(await simulate(mutant.journal, scenario)).map((v) => v.code));
      expect(mutant.breaks.filter((code) => fired.has(code)), `fired: ${[...fired].join(', ')}`).not.toEqual([]);
      expect(judge(await simulate(referenceJournal, scenario))).toEqual([]);
    });

    test(`is killed within ${MUTANT_BUDGET} runs and shrinks close to the hand-minimal scenario`, async () => {
      const result = await huntJournal(pool, bundledJournal(name)!, { numRuns: MUTANT_BUDGET, seed: mutantSeed(index) });
      expect(result.killed).toBe(true);
      expect(mutant.breaks.filter((code) => result.invariants?.includes(code)), `fired: ${result.invariants?.join(', ')}`).not.toEqual([]);
      const hand = minimal(name);
      const handSteps = (await simulate(mutant.journal, hand)).stats.steps;
      expect(result.faults).toBeLessThanOrEqual(hand.faults.length + 1);
      expect(result.steps).toBeLessThanOrEqual(Math.ceil(handSteps * 1.25));
    }, PROPERTY_TIMEOUT_MS);
  });
});
