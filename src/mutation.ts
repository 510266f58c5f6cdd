/**
 * Hunting one journal's bugs the way `durasim check` does (worker pool, fresh modules per
 * incarnation, shrinking), summed up for the mutant corpus's kill table. Reusable for any journal.
 */
import { describeViolation, type InvariantCode } from '../model/violation.js';
import type { Scenario } from '../simulator/scenario/scenario.js';
import type { ScenarioArbitraryOptions } from './arbitraries.js';
import type { JournalRef } from './isolation/journalRef.js';
import type { WorkerPool } from './pool/workerPool.js';
import { hunt } from './runner/hunt.js';
import { summaryOf } from './runner/runVerdict.js';

export interface HuntOptions {
  numRuns: number;
  seed: number;
  arbitrary?: ScenarioArbitraryOptions;
  /** Shrink the counterexample (default true). */
  shrink?: boolean;
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

export async function huntJournal(pool: WorkerPool, ref: JournalRef, options: HuntOptions): Promise<HuntResult> {
  const loaded = await pool.load(ref);
  const hunted = await hunt({ pool, journalId: loaded.journalId, seed: options.seed, runs: options.numRuns, ...(options.arbitrary ? { arbitrary: options.arbitrary } : {}), ...(options.shrink === false ? { shrink: false } : {}) });
  const base: HuntResult = { journal: loaded.name, seed: options.seed, budget: options.numRuns, killed: hunted.finding !== undefined, totalMs: hunted.elapsedMs };
  const finding = hunted.finding;
  if (!finding) return base;
  const summary = summaryOf(finding.outcome);
  const result: HuntResult = {
    ...base,
    runsToFailure: hunted.runsExecuted,
    msToFailure: hunted.msToFinding ?? 0,
    counterexample: finding.scenario,
    invariants: [...new Set((summary?.violations ?? []).map((v) => v.code))],
    violations: (summary?.violations ?? []).map(describeViolation),
    faults: finding.scenario.faults.length,
  };
  if (finding.shrink) Object.assign(result, { shrinkMs: finding.shrink.ms, shrinks: finding.shrink.steps });
  if (summary) result.steps = summary.stats.steps;
  return result;
}
