/**
 * The mutant corpus is durasim's own regression gate: every mutant must be killed within the
 * budget by the property suite, each for a reason its defect explains, and shrunk to a
 * counterexample close to the hand-minimal one (within one fault and 10% of the steps); over the
 * corpus, the runs to detection are at most 20 at the median and 200 at worst — leaving out the
 * mutants whose window the generator reaches rarely (Mutant.rareWindow), which are only
 * held to their budget. The five-minute suite hunts every twelfth mutant (all of them run their
 * hand-minimal scenario); CI hunts the whole corpus (.ci/run: npm run mutants, held to the same
 * bounds by mutantProblems, which a test here shows firing).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { judge } from '../model/judge.js';
import { MUTANTS, mutantArbitrary } from '../src/journals/mutants/index.js';
import { referenceJournal } from '../src/journals/reference.js';
import { closeToMinimal, handMinimal, MUTANT_BUDGET, mutantProblems, mutantSeed, simulatorOf } from '../src/mutantsMain.js';
import { bundledJournal } from '../src/isolation/journalRef.js';
import { huntJournal } from '../src/mutation.js';
import { WorkerPool } from '../src/pool/workerPool.js';
import { parseScenarioText, type Scenario } from '../simulator/scenario/scenario.js';
import { PROPERTY_TIMEOUT_MS } from './budgets.js';
import { markerProblem } from './fixtures/markerRule.js';

// The hunts run as `durasim check` runs them: in worker threads, modules fresh per incarnation.
// One worker: what an exploration or a hunt finds does not depend on the count (src/pool/workerPool.test.ts), and on 2 cores under
// vitest's two forks a second worker adds its boot and warm-up (~5 s of CPU over these files) and takes no wall time off.
const pool = new WorkerPool({ workers: 1 });
afterAll(() => pool.close());

const runsToDetect: number[] = [];
// Each journal bundled and compiled once for this file (the reference journal serves every mutant's check), an instance per incarnation as check takes one.
const simulators = new Map<string, ReturnType<typeof simulatorOf>>();
const simulateAsProcesses = async (name: string, scenario: Scenario) => {
  if (!simulators.has(name)) simulators.set(name, simulatorOf(name));
  return (await simulators.get(name)!)(scenario);
};
const aimed = MUTANTS.filter((m) => m.rareWindow === undefined);
const minimal = (name: string) => parseScenarioText(readFileSync(new URL(`../reports/mutants/minimal/${name}.json`, import.meta.url), 'utf8'));


/** The mutants this suite hunts (every twelfth, four: a sample; CI hunts them all, held to the same bounds). */
const HUNTED_HERE = (index: number): boolean => index % 12 === 0;
describe('the mutant corpus', () => {
  test('has thirty-eight mutants with distinct names', () => {
    expect(new Set(MUTANTS.map((m) => m.journal.name)).size).toBe(38);
  });

  describe.each(MUTANTS.map((m, i) => [m.journal.name, m, i] as const))('%s', (name, mutant, index) => {
    test('its hand-minimal scenario exposes it, every marker where it is true, and the correct journal it mutates passes it', async () => {
      const scenario = minimal(name);
      // As check runs them: each incarnation of each worker a fresh instance of the journal's modules (a process).
      const result = await simulateAsProcesses(name, scenario);
      const violations = judge(result);
      const fired = new Set(violations.map((v) => v.code));
      expect(mutant.breaks.filter((code) => fired.has(code)), `fired: ${[...fired].join(', ')}`).not.toEqual([]);
      // Every marker where it is true: at its act, or where the disk or the records showed it (fixtures/markerRule.ts).
      expect(violations.flatMap((v) => markerProblem(v, result.trace, scenario.task.id ?? 'task-1') ?? [])).toEqual([]);
      expect(judge(await simulateAsProcesses((mutant.reference ?? referenceJournal).name, scenario))).toEqual([]);
    });

    test.skipIf(!HUNTED_HERE(index))(`is killed within ${MUTANT_BUDGET} runs and shrinks close to the hand-minimal scenario`, async () => {
      const result = await huntJournal(pool, bundledJournal(name)!, { numRuns: MUTANT_BUDGET, seed: mutantSeed(index), ...mutantArbitrary(mutant) });
      expect(result.killed).toBe(true);
      if (mutant.rareWindow === undefined) runsToDetect.push(result.runsToFailure ?? Number.POSITIVE_INFINITY);
      expect(mutant.breaks.filter((code) => result.invariants?.includes(code)), `fired: ${result.invariants?.join(', ')}`).not.toEqual([]);
      const hand = await handMinimal(name);
      expect(closeToMinimal({ ...result, ...hand }), `shrunk to ${result.faults} faults / ${result.steps} steps; hand-minimal ${hand.handFaults} / ${hand.handSteps}`).toBe(true);
    }, PROPERTY_TIMEOUT_MS);
  });

  test('is detected within 20 runs at the median and 200 at worst (the mutants the generator aims at, of those hunted here)', () => {
    expect(aimed.length).toBeGreaterThanOrEqual(MUTANTS.length - 1);
    expect(runsToDetect).toHaveLength(MUTANTS.filter((m, i) => HUNTED_HERE(i) && m.rareWindow === undefined).length);
    const sorted = [...runsToDetect].sort((a, b) => a - b);
    expect(sorted[Math.floor((sorted.length - 1) / 2)], `runs to detection: ${sorted.join(', ')}`).toBeLessThanOrEqual(20);
    expect(sorted.at(-1), `runs to detection: ${sorted.join(', ')}`).toBeLessThanOrEqual(200);
  });
});

describe('the mutant gate CI runs whole (npm run mutants)', () => {
  const row = { name: 'm', aimed: true, killed: true, invariants: ['write-ahead'], expected: ['write-ahead'], runsToFailure: 3, faults: 1, steps: 40, handFaults: 1, handSteps: 40 };
  test('passes a corpus that meets the bounds, and says each way one misses them', () => {
    expect(mutantProblems([row])).toEqual([]);
    expect(mutantProblems([{ ...row, killed: false, invariants: [] }])).toEqual(['m survived']);
    expect(mutantProblems([{ ...row, invariants: ['single-flight'] }])).toEqual(['m was killed by single-flight, none of the invariants its defect breaks (write-ahead)']);
    expect(mutantProblems([{ ...row, steps: 45 }])).toEqual(['m shrank to 1 faults / 45 steps, far from its hand-minimal 1 / 40']);
    expect(mutantProblems([{ ...row, runsToFailure: 21 }])).toEqual(['the median runs to detection is 21, over 20']);
    expect(mutantProblems([row, { ...row, runsToFailure: 201 }, row])).toEqual(['the worst runs to detection is 201, over 200']);
    expect(mutantProblems([row, { ...row, aimed: false, runsToFailure: 4_000 }])).toEqual([]);
  });
});
