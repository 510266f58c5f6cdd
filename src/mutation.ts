/**
 * Hunting a journal's bugs with the property suite: generated scenarios until the judge finds a
 * violation, then fast-check's shrinking down to a small counterexample. Used for the mutant
 * corpus (`npm run mutants`) and reusable for any journal.
 */
import fc from 'fast-check';
import type { JournalAdapter } from './contract.js';
import { scenarioArbitrary, type ScenarioArbitraryOptions } from './arbitraries.js';
import { judge } from '../model/judge.js';
import { describeViolation, type InvariantCode } from '../model/violation.js';
import type { Scenario } from '../simulator/scenario.js';
import { simulate } from '../simulator/simulate.js';

export interface HuntOptions {
  numRuns: number;
  seed: number;
  arbitrary?: ScenarioArbitraryOptions;
}

export interface HuntResult {
  journal: string;
  seed: number;
  budget: number;
  killed: boolean;
  /** Runs up to and including the first failing one. */
  runsToFailure?: number;
  msToFailure?: number;
  /** Time spent shrinking after the first failure. */
  shrinkMs?: number;
  shrinks?: number;
  /** The shrunk counterexample, and what it shows. */
  counterexample?: Scenario;
  invariants?: InvariantCode[];
  violations?: string[];
  faults?: number;
  steps?: number;
  totalMs: number;
}

const clockMs = (): number => performance.now();

export async function hunt(journal: JournalAdapter, options: HuntOptions): Promise<HuntResult> {
  let runs = 0;
  let failedAtMs: number | undefined;
  const started = clockMs();
  const property = fc.asyncProperty(scenarioArbitrary(options.arbitrary), async (scenario) => {
    if (failedAtMs === undefined) runs++;
    const violations = judge(await simulate(journal, scenario));
    if (violations.length === 0) return true;
    failedAtMs ??= clockMs();
    return false;
  });
  const details = await fc.check(property, { numRuns: options.numRuns, seed: options.seed });
  const totalMs = clockMs() - started;
  const base: HuntResult = { journal: journal.name, seed: options.seed, budget: options.numRuns, killed: details.failed, totalMs };
  if (!details.failed || details.counterexample === null || failedAtMs === undefined) return base;
  const counterexample = details.counterexample[0];
  const result = await simulate(journal, counterexample);
  const violations = judge(result);
  return {
    ...base,
    runsToFailure: runs,
    msToFailure: failedAtMs - started,
    shrinkMs: totalMs - (failedAtMs - started),
    shrinks: details.numShrinks,
    counterexample,
    invariants: [...new Set(violations.map((v) => v.code))],
    violations: violations.map(describeViolation),
    faults: counterexample.faults.length,
    steps: result.stats.steps,
  };
}
