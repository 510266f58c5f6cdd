/**
 * check's systematic first step (issue 52 item 1): every single fault at every step of the task's
 * fault-free run — what `explore --depth 1` tries (crashExplorer.ts: every distinct crash state,
 * every I/O error, every fault of the families in play that can land at the step), each state told
 * apart by what it leads to and judged once — before any drawn run. A defect that one fault at one
 * step reveals is then found by construction.
 *
 * It stops at the first state that fails otherwise than by not finishing (a liveness failure is
 * kept, and the sweep goes on: a safety finding after it outranks it, as in the drawn runs); in a
 * tally it judges every state and counts them per invariant. What it covered — states, of how
 * many steps, runs, seconds — goes into the summary. The base is the task's fault-free run: the
 * user's task (its faults, schedule and draws dropped), else the standard workload with every
 * feature of the task shape, in the run's environment, bounds and service contract.
 *
 * With `pairs` (issue 52 item 3), the sweep goes on to two faults: `explore --depth 2`'s pairs kept
 * by dependency, in its pair order (dependentPairs.ts: pairOrder), on their own bound in runs
 * (check's --pair-runs). The order is read from the sweep's own runs (their traces), so it is a
 * function of the task and of what the sweep saw, never of timing or workers. A failing pair ends
 * them as a failing state ends the sweep; what they covered and cost is said apart from the sweep's.
 */
import type { Scenario } from '../../simulator/scenario/scenario.js';
import type { RunSummary } from '../pool/protocol.js';
import type { RunOutcome, WorkerPool } from '../pool/workerPool.js';
import { featuredScenario, type FaultKind, type ScenarioArbitraryOptions, type TaskFeature } from '../arbitraries.js';
import { shapedScenario } from '../taskShape.js';
import { exploreCrashes, type FirstFault, type PairCount, type SweptState } from './crashExplorer.js';
import { summaryVerdict, tallyCodes, type Judged, type RunVerdict } from './runVerdict.js';
import { count } from '../report/count.js';

/** The sweep's default bound in runs (check's --sweep-runs): about eleven times the standard task's whole sweep (1,820 runs). */
export const SWEEP_RUNS = 20_000;

/** The two-fault pairs' default bound in runs (check's --pair-runs): measured in docs/faults.md ("which pairs are covered by default"). */
export const PAIR_RUNS = 500;

export interface SweepOptions {
  pool: WorkerPool;
  journalId: number;
  base: Scenario;
  families: readonly FaultKind[];
  features?: readonly TaskFeature[];
  judged?: Judged;
  tally?: boolean;
  shard?: { index: number; count: number };
  /** The sweep's bound: no batch is started once this many runs are made (check's --sweep-runs). */
  maxRuns?: number;
  /** True once the sweep must stop (an interrupt, the time budget): no batch is started after it. */
  stop?: () => boolean;
  /** After each batch: runs and states so far, and the crash points swept of all (once the fault-free run is known). */
  onProgress?: (runs: number, states: number, points?: { explored: number; of: number }) => void;
  /** Then the two-fault pairs kept by dependency, in explore --depth 2's order, on this bound in runs (check's --pair-runs). */
  pairs?: { maxRuns: number; onProgress?: (runs: number, tried: number, kept: number) => void };
}

/** A state the sweep found failing: its scenario (the base with one fault), its run, and where it is. */
export interface SweepFailure {
  scenario: Scenario;
  outcome: RunOutcome;
  verdict: Exclude<RunVerdict, 'clean'>;
  /** The state in words: the fault's family, the kind of step, its trace line (a pair: the first fault's, then the second's). */
  where: string;
  /** Found by a two-fault pair, not by one fault. */
  pair?: boolean;
}

/** What the two-fault pairs covered: how many the dependency kept (of all), how many were tried, their runs, wall and CPU ms. */
export interface PairsResult {
  total: number;
  kept: number;
  /** Some depth-1 state's pairs were not counted (the sweep stopped before its end). */
  partial: boolean;
  tried: number;
  runs: number;
  ms: number;
  cpuMs: number;
  /** Every kept pair was tried. */
  complete: boolean;
  /** Why not every kept pair was tried, in words. */
  stoppedBy?: string;
}

export interface SweepResult {
  /** Distinct single-fault states judged (the base run not counted). */
  states: number;
  /** Steps of the fault-free run (crash points: before and after each) of this shard, and how many were swept. */
  points: { explored: number; of: number };
  runs: number;
  ms: number;
  /** This process's CPU while it ran, every thread (the pool's workers too): the harness's accounting, never simulated. */
  cpuMs: number;
  /** It did not reach every point: it stopped at a failure, or was stopped. */
  complete: boolean;
  /** Why it stopped before the last point, in words. */
  stoppedBy?: string;
  failure?: SweepFailure;
  /** The first state that failed by not finishing, when the failure is another (or there is none). */
  liveness?: SweepFailure;
  /** In a tally: failing states per invariant, and the first of each. */
  tally?: { counts: Record<string, number>; firsts: Record<string, SweepFailure> };
  /** The two-fault pairs after the sweep, when asked for and the sweep reached them. */
  pairs?: PairsResult;
}

const article = (kind: string): string => (/^[aeiou]/.test(kind) ? 'an' : 'a');
/** One fault in words: its family, the kind of step, its trace line, what else it changed. */
const faultWords = (fault: FirstFault): string => `${fault.family} at ${article(fault.kind)} ${fault.kind} step (${fault.point.line.slice(0, 80)})${fault.note ? `, ${fault.note}` : ''}`;

/** The base of check's sweep: the user's task as a fault-free run, else the standard workload with every feature in the task shape. */
export function sweepBase(arbitrary: ScenarioArbitraryOptions): Scenario {
  const task = arbitrary.task;
  const start: Scenario = task
    ? { ...structuredClone(task), faults: [], schedule: [], random: [] }
    : shapedScenario(featuredScenario(), { ...(arbitrary.operations ? { operations: arbitrary.operations } : {}), ...(arbitrary.features ? { features: arbitrary.features } : {}) });
  const scenario: Scenario = {
    ...start,
    ...(arbitrary.environment ? { environment: { ...arbitrary.environment } } : {}),
    ...(arbitrary.bounds ? { bounds: { ...start.bounds, ...arbitrary.bounds } } : {}),
  };
  if (arbitrary.contract) scenario.service = { ...scenario.service, contract: structuredClone(arbitrary.contract) };
  return scenario;
}

const wallMs = (): number => performance.now(); // the harness's clock: reported, never simulated
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const simulated = (summary: RunSummary): RunOutcome => ({ kind: 'simulated', summary } as RunOutcome);

export async function sweepSingleFaults(options: SweepOptions): Promise<SweepResult> {
  const started = wallMs();
  const cpuStarted = cpuMs();
  let failure: SweepFailure | undefined;
  let liveness: SweepFailure | undefined;
  const counts: Record<string, number> = {};
  const firsts: Record<string, SweepFailure> = {};
  // Where the pairs began: the sweep's runs, wall and CPU are those before it.
  let pairsFrom: { runs: number; states: number; ms: number; cpuMs: number } | undefined;
  const failing = (scenario: Scenario, summary: RunSummary, where: string, pair = false): boolean => {
    const verdict = summaryVerdict(summary, options.judged);
    if (verdict === 'clean') return false;
    const found: SweepFailure = { scenario, outcome: simulated(summary), verdict, where, ...(pair ? { pair } : {}) };
    if (options.tally && verdict !== 'usage') {
      for (const code of tallyCodes(found.outcome, options.judged)) {
        counts[code] = (counts[code] ?? 0) + 1;
        firsts[code] ??= found;
      }
      return false;
    }
    // A run the pool stopped (blocked, out of memory) ends the search as in the drawn runs; any other liveness failure does not.
    const stoppedByPool = summary.outcome.kind === 'journal-blocked' || summary.outcome.kind === 'journal-out-of-memory';
    if (verdict === 'liveness' && !stoppedByPool) {
      liveness ??= found;
      return false;
    }
    failure = found;
    return true;
  };
  const exploration = await exploreCrashes({
    pool: options.pool,
    journalId: options.journalId,
    base: options.base,
    depth: options.pairs ? 2 : 1,
    ...(options.pairs ? { maxPairRuns: options.pairs.maxRuns, onPairs: (runs: number, states: number) => (pairsFrom = { runs, states, ms: wallMs(), cpuMs: cpuMs() }) } : {}),
    families: options.families,
    ...(options.features ? { features: options.features } : {}),
    ...(options.judged ? { judged: options.judged } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.maxRuns !== undefined ? { maxRuns: options.maxRuns } : {}),
    // Small batches: a failure stops the sweep a few steps after it, not 64.
    batch: options.tally ? 64 : 8,
    onState: (state: SweptState) => failing(state.scenario, state.summary, state.first ? `${faultWords(state.first)}, then ${faultWords(state)}` : faultWords(state), state.first !== undefined),
    ...(options.stop ? { stop: options.stop } : {}),
    onProgress: (runs: number, states: number, _failing: number, points?: { explored: number; of: number }, pairs?: PairCount) => {
      if (pairs && pairsFrom) options.pairs?.onProgress?.(runs - pairsFrom.runs, pairs.tried, pairs.kept);
      else options.onProgress?.(runs, states, points);
    },
  });
  // The fault-free run itself: a failure there is the finding (no fault needed), and nothing after it was tried.
  const baseFails = exploration.baseSummary !== undefined && exploration.baseViolations.length + exploration.baseSummary.escapes.length > 0;
  if (baseFails && exploration.baseSummary) failing(options.base, exploration.baseSummary, 'the fault-free run');
  if (exploration.harnessError !== undefined) failure ??= { scenario: options.base, outcome: { kind: 'harness-error', message: exploration.harnessError } as RunOutcome, verdict: 'harness', where: 'the sweep' };
  if (exploration.inspectProblems) {
    const { scenario, problems } = exploration.inspectProblems;
    failure ??= { scenario, outcome: simulated({ outcome: { kind: 'completed' }, violations: [], escapes: [], stats: { steps: 0, incarnations: 0, virtualTimeMs: 0, traceEntries: 0 }, journalErrors: [], crashStates: [], inspectProblems: problems } as RunSummary), verdict: 'usage', where: 'the sweep' };
  }
  const points = exploration.points ?? { explored: 0, of: 0 };
  // A stop or a bound comes between batches: a sweep that reached every crash point ended before it.
  const pairFailure = failure?.pair === true;
  const complete = points.explored === points.of && (failure === undefined || pairFailure) && !(exploration.stopped && pairsFrom === undefined);
  const stoppedBy = complete ? undefined : baseFails ? 'the fault-free run itself fails: no fault was tried' : failure ? 'stopped at the first failing state' : exploration.stopped ? 'stopped by the time budget or the interrupt' : exploration.cutShort ? `cut short at its bound of ${count(options.maxRuns ?? 0, 'run')}: --sweep-runs N raises it` : undefined;
  const end = { runs: exploration.runs, states: exploration.states, ms: wallMs(), cpuMs: cpuMs() };
  const sweepEnd = pairsFrom ?? end;
  const pairCount = exploration.pairs;
  // The pairs are said once the sweep let them begin: not after a failing state or a failing fault-free run, nor after a stop within the sweep.
  const pairs: PairsResult | undefined = pairsFrom && pairCount && (failure === undefined || pairFailure) && (points.explored === points.of || pairCount.tried > 0)
    ? (() => {
        const allTried = pairCount.tried >= pairCount.kept && !pairCount.cutShort && !exploration.stopped && !pairFailure;
        const pairsStoppedBy = allTried ? undefined : pairFailure ? 'stopped at the first failing pair' : exploration.stopped ? 'stopped by the time budget or the interrupt' : pairCount.cutShort ? `cut short at their bound of ${count(options.pairs?.maxRuns ?? 0, 'run')}: --pair-runs N raises it` : undefined;
        return { total: pairCount.total, kept: pairCount.kept, partial: pairCount.partial, tried: pairCount.tried, runs: end.runs - pairsFrom.runs, ms: end.ms - pairsFrom.ms, cpuMs: end.cpuMs - pairsFrom.cpuMs, complete: allTried, ...(pairsStoppedBy ? { stoppedBy: pairsStoppedBy } : {}) };
      })()
    : undefined;
  return {
    states: sweepEnd.states,
    points,
    runs: sweepEnd.runs,
    ms: sweepEnd.ms - started,
    cpuMs: sweepEnd.cpuMs - cpuStarted,
    complete,
    ...(stoppedBy ? { stoppedBy } : {}),
    ...(pairs ? { pairs } : {}),
    ...(failure ? { failure } : {}),
    ...(liveness ? { liveness } : {}),
    ...(options.tally ? { tally: { counts, firsts } } : {}),
  };
}
