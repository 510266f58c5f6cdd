/**
 * Hunting a journal's bugs in the worker pool: its stored regressions first, then the seed's
 * generated scenarios (explore), then the first failure shrunk to a small counterexample that
 * fails the same way (same verdict): fast-check's shrink, then every fault still placed by number
 * anchored where it landed (anchorFaults.ts), then the rewrites of simplifyScenario.ts — which can
 * then drop an operation, or a fault that only shifted the others' timing, without moving the rest
 * out of their windows. Used by `durasim check`, `checkJournal` and the mutant corpus.
 *
 * Not shrunk, saved as found: a run the pool had to stop (each attempt would cost the hang
 * timeout or a worker's memory), a nondeterministic run (it may not fail twice), and a harness error.
 *
 * `stop` (an interrupted check): no run is started after it says so — the stored regressions not
 * yet replayed are taken back, no generated run is drawn — the runs under way end and count, and a
 * finding is shrunk only as far as it got (saved as found when the stop came first).
 */
import type fc from 'fast-check';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import type { ScenarioArbitraryOptions } from '../arbitraries.js';
import type { RunOutcome, WorkerPool } from '../pool/workerPool.js';
import type { Regression } from '../regressions.js';
import { DETERMINISM_EVERY, divergenceOf, explore, type Divergence, type ExploreFailure, type Work } from './explore.js';
import { outcomeVerdict, tallyCodes, type Judged, type RunVerdict } from './runVerdict.js';
import { shrinkScenario } from './shrinkScenario.js';
import type { GuideSummary } from './windowGuide.js';
import { simplifyScenario } from './simplifyScenario.js';
import { inRunShape, runShapeOf } from './runShape.js';
import { anchoredInPlace, hasNumberedFaults } from './anchorFaults.js';
import { withFewerFeatures } from './fewerFeatures.js';
import { sweepSingleFaults, type PairsResult, type SweepFailure, type SweepOptions, type SweepResult } from './sweep.js';

export interface HuntOptions {
  pool: WorkerPool;
  journalId: number;
  seed: number;
  runs: number;
  arbitrary?: ScenarioArbitraryOptions;
  shard?: { index: number; count: number };
  timeBudgetMs?: number;
  regressions?: readonly Regression[];
  determinismEvery?: number;
  /** Shrink attempts at most (default 3000). */
  maxShrinkAttempts?: number;
  /** Shrink the finding (default true); false reports it as found (a detection count needs no shrinking). */
  shrink?: boolean;
  onProgress?: (runsDone: number, failing: number) => void;
  /** While a finding shrinks: candidates tried, smaller failing scenarios taken, and the faults the current one holds. */
  onShrink?: (progress: { attempts: number; steps: number; faults: number }) => void;
  /** Each generated run's console output as it comes back (check --verbose). */
  onOutput?: (run: string, lines: readonly string[]) => void;
  /** The invariants judged (default: all). */
  judged?: Judged;
  /** Run the whole budget, count failing runs per invariant, and shrink the first of each. */
  tally?: boolean;
  /** Aim part of the runs at fault windows none hit yet (explore.ts; default false). */
  guided?: boolean;
  /** Workers to shrink a finding with: the pool grows to this many first (default: as many as it has). */
  shrinkWorkers?: number;
  /** A liveness failure does not end the search; a safety one found later outranks it, and both are findings (explore.ts). */
  keepLookingPastLiveness?: boolean;
  /** True once the hunt must stop (a signal): see above. */
  stop?: () => boolean;
  /**
   * Sweep every single fault at every step of the task's fault-free run first (sweep.ts): its base
   * and the families it tries. A failure there is the finding (shrunk by the rewrites alone); a
   * liveness one is kept and the drawn runs go on.
   */
  sweep?: Pick<SweepOptions, 'base' | 'families' | 'features' | 'onProgress' | 'maxRuns' | 'pairs'>;
}

/** What the sweep covered, for the summary. */
export interface SweepSummary {
  states: number;
  points: { explored: number; of: number };
  runs: number;
  ms: number;
  cpuMs: number;
  complete: boolean;
  stoppedBy?: string;
  /** The two-fault pairs after it (check's default; --no-pairs leaves them out). */
  pairs?: PairsResult;
}

export interface Finding {
  verdict: Exclude<RunVerdict, 'clean'>;
  /** The counterexample: shrunk where that was possible. */
  scenario: Scenario;
  /** The outcome of the counterexample's run. */
  outcome: RunOutcome;
  /** Where it came from: a stored regression file, the run of that index in the seed's sequence, a state of the single-fault sweep, or a two-fault pair after it. */
  origin: { regression: string } | { index: number } | { sweep: string } | { pair: string };
  shrink?: { attempts: number; steps: number; exhausted: boolean; ms: number; fromFaults: number; stopped?: boolean };
  notShrunk?: string;
  /** For a finding that is a difference between two runs: the runs and where they part. */
  divergence?: Divergence;
  /** Tally mode: the invariant ('sandbox' for an escape or a difference) this counterexample breaks. */
  invariant?: string;
}

export interface HuntResult {
  runsExecuted: number;
  /** Of them, stored regressions replayed. */
  storedReplayed: number;
  /** What the generated runs simulated (their first runs): steps and trace entries, summed. */
  work?: Work;
  timeBudgetHit: boolean;
  /** `stop` cut the hunt short: runs it would have made were not. */
  stopped: boolean;
  determinismChecks: number;
  independenceChecks: number;
  finding?: Finding;
  /** With keepLookingPastLiveness: the first liveness failure, when the finding is one of another verdict found after it (shrunk too). */
  alsoLiveness?: Finding;
  msToFinding?: number;
  elapsedMs: number;
  /** Tally mode: failing runs per invariant (stored regressions included), and one counterexample per invariant, first found first. */
  tally?: { counts: Record<string, number>; findings: Finding[] };
  /** The fault windows the generated runs hit, and how the runs aimed at one fared. */
  coverage?: GuideSummary;
  /** The single-fault sweep, when one ran first. */
  sweep?: SweepSummary;
}

const wallMs = (): number => performance.now(); // the harness's clock: reported, never simulated

/** A stored regression's run tag in the pool: below -1 (the pool's untagged), apart from the generated runs' indexes. */
const regressionTag = (i: number): number => -2 - i;
const isRegressionTag = (tag: number): boolean => tag <= -2;

export async function hunt(options: HuntOptions): Promise<HuntResult> {
  const started = wallMs();
  const { pool, journalId } = options;
  let runsExecuted = 0;
  const counts: Record<string, number> = {};
  const findings: Finding[] = [];
  // Stored regressions run as generated runs do (every incarnation on fresh modules), and are re-run
  // for determinism at the same rate: the first, then every determinismEvery-th. They are all sent to
  // the pool at once (every worker replays its share) and judged in their order; those not yet
  // started when one fails are taken back.
  const determinismEvery = options.determinismEvery ?? DETERMINISM_EVERY;
  let storedDeterminismChecks = 0;
  const regressions = options.regressions ?? [];
  const thenOf = (i: number): 'same' | undefined => (determinismEvery > 0 && i % determinismEvery === 0 ? 'same' : undefined);
  const replays = regressions.map((regression, i) => {
    const then = thenOf(i);
    return pool.run(journalId, regression.scenario, { detail: 'hash', ...(then ? { then } : {}), ...(options.onOutput ? { output: true } : {}) }, regressionTag(i));
  });
  let stopped = false;
  for (const [i, stored] of regressions.entries()) {
    if (!stopped && options.stop?.()) {
      stopped = true;
      pool.cancel(isRegressionTag); // those not yet started are taken back; those under way end and count
    }
    const then = thenOf(i);
    const outcome = await (replays[i] as Promise<RunOutcome>);
    if (stopped && outcome.kind === 'cancelled') continue; // taken back by the stop: it never ran
    runsExecuted++;
    if (then && outcome.kind === 'simulated' && outcome.again) storedDeterminismChecks++;
    if (outcome.kind === 'simulated' && outcome.summary.output && outcome.summary.output.length > 0) options.onOutput?.(`regression ${stored.file}`, outcome.summary.output);
    const divergence = then ? divergenceOf(outcome, then) : undefined;
    const verdict = divergence ? 'sandbox' : outcomeVerdict(outcome, options.judged);
    if (verdict !== 'clean') {
      const tallied = options.tally === true && verdict !== 'harness' && verdict !== 'usage';
      if (!tallied) pool.cancel(isRegressionTag); // this one is the finding: the replays not yet started are taken back
      const finding: Finding = { verdict, scenario: stored.scenario, outcome, origin: { regression: stored.file }, notShrunk: 'a stored regression is replayed as saved' };
      if (divergence && then) finding.divergence = divergenceOf(await pool.run(journalId, stored.scenario, { detail: 'trace', then }), then) ?? divergence;
      if (tallied) {
        for (const code of divergence ? ['sandbox'] : tallyCodes(outcome, options.judged)) {
          counts[code] = (counts[code] ?? 0) + 1;
          if (!findings.some((f) => f.invariant === code)) findings.push({ ...finding, invariant: code });
        }
        continue;
      }
      return { runsExecuted, storedReplayed: runsExecuted, timeBudgetHit: false, stopped, determinismChecks: storedDeterminismChecks, independenceChecks: 0, finding, msToFinding: wallMs() - started, elapsedMs: wallMs() - started };
    }
  }
  const storedReplayed = runsExecuted;
  // The single-fault sweep, first: a failure there ends the hunt; a liveness one is kept and the drawn runs go on.
  let swept: SweepResult | undefined;
  if (options.sweep && !stopped) {
    const budgetOver = (): boolean => options.timeBudgetMs !== undefined && wallMs() - started >= options.timeBudgetMs;
    swept = await sweepSingleFaults({
      pool,
      journalId,
      ...options.sweep,
      ...(options.judged ? { judged: options.judged } : {}),
      ...(options.tally ? { tally: true } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      stop: () => options.stop?.() === true || budgetOver(),
    });
    const sweep: SweepSummary = summaryOfSweep(swept);
    if (swept.tally) {
      for (const [code, n] of Object.entries(swept.tally.counts)) counts[code] = (counts[code] ?? 0) + n;
      for (const [code, first] of Object.entries(swept.tally.firsts)) if (!findings.some((f) => f.invariant === code)) findings.push(await sweepFindingOf(options, first, code));
    } else if (swept.failure) {
      const finding = await sweepFindingOf(options, swept.failure, undefined);
      const alsoLiveness = swept.liveness ? await sweepFindingOf(options, swept.liveness, undefined) : undefined;
      return { runsExecuted, storedReplayed, timeBudgetHit: false, stopped: false, determinismChecks: storedDeterminismChecks, independenceChecks: 0, sweep, finding, ...(alsoLiveness ? { alsoLiveness } : {}), msToFinding: wallMs() - started, elapsedMs: wallMs() - started };
    }
    if (options.stop?.() || budgetOver()) {
      const liveness = swept.liveness && !options.tally ? await sweepFindingOf(options, swept.liveness, undefined) : undefined;
      const tally = options.tally ? { tally: { counts, findings }, ...(findings[0] ? { finding: findings[0] } : {}) } : {};
      return { runsExecuted, storedReplayed, timeBudgetHit: budgetOver(), stopped: options.stop?.() === true, determinismChecks: storedDeterminismChecks, independenceChecks: 0, sweep, ...(liveness ? { finding: liveness } : {}), ...tally, elapsedMs: wallMs() - started };
    }
  }
  const sweepSummary = swept ? { sweep: summaryOfSweep(swept) } : {};
  const explored = await explore({
    pool,
    journalId,
    arbitrary: options.arbitrary ?? {},
    seed: options.seed,
    runs: options.runs,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: Math.max(0, options.timeBudgetMs - (wallMs() - started)) } : {}),
    ...(options.determinismEvery !== undefined ? { determinismEvery: options.determinismEvery } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onOutput ? { onOutput: options.onOutput } : {}),
    ...(options.judged ? { judged: options.judged } : {}),
    ...(options.tally ? { tally: true } : {}),
    ...(options.guided ? { guided: true } : {}),
    ...(options.keepLookingPastLiveness ? { keepLookingPastLiveness: true } : {}),
    // Stopped during the regressions: no generated run is drawn.
    ...(options.stop ? { stop: options.stop } : {}),
  });
  runsExecuted += explored.runsExecuted;
  const base = { runsExecuted, storedReplayed, timeBudgetHit: explored.timeBudgetHit, stopped: stopped || explored.stopped, determinismChecks: storedDeterminismChecks + explored.determinismChecks, independenceChecks: explored.independenceChecks, work: explored.work, ...(explored.coverage ? { coverage: explored.coverage } : {}), ...sweepSummary };
  const failure = explored.failure;
  if (explored.tally && !failure) {
    for (const [code, n] of Object.entries(explored.tally.counts)) counts[code] = (counts[code] ?? 0) + n;
    // One counterexample per invariant, shrunk to still break that invariant, in the order first found.
    const firsts = Object.entries(explored.tally.firsts).filter(([code]) => !findings.some((f) => f.invariant === code)).sort(([, a], [, b]) => a.index - b.index);
    for (const [code, first] of firsts) findings.push(await findingOf(options, first, code));
    const tally = { counts, findings };
    return findings.length > 0 ? { ...base, finding: findings[0] as Finding, tally, elapsedMs: wallMs() - started } : { ...base, tally, elapsedMs: wallMs() - started };
  }
  // The sweep's liveness failure came before every drawn run: the finding when nothing else was found, else beside a safety one.
  const sweptLiveness = swept?.liveness && !options.tally ? await sweepFindingOf(options, swept.liveness, undefined) : undefined;
  if (!failure) return { ...base, ...(sweptLiveness ? { finding: sweptLiveness } : {}), elapsedMs: wallMs() - started };
  const msToFinding = explored.msToFailure ?? 0;
  const finding = sweptLiveness && failure.verdict === 'liveness' ? sweptLiveness : await findingOf(options, failure, undefined);
  const alsoLiveness = sweptLiveness && finding !== sweptLiveness ? sweptLiveness : explored.liveness ? await findingOf(options, explored.liveness, undefined) : undefined;
  return { ...base, finding, ...(alsoLiveness ? { alsoLiveness } : {}), msToFinding, elapsedMs: wallMs() - started };
}

/** The scenario with every numbered fault anchored where it landed in its run, when that run still fails the same way; else as it was. */
export async function anchorWhereItLanded(pool: WorkerPool, journalId: number, scenario: Scenario, measure: (scenario: Scenario) => Promise<number | undefined>): Promise<Scenario> {
  if (!hasNumberedFaults(scenario)) return scenario;
  const outcome = await pool.run(journalId, scenario, { detail: 'trace' });
  const trace = outcome.kind === 'simulated' ? outcome.summary.trace : undefined;
  if (trace === undefined) return scenario;
  const anchored = anchoredInPlace(scenario, trace);
  return (await measure(anchored)) !== undefined ? anchored : scenario;
}

/** What the sweep covered and cost, for the summary. */
function summaryOfSweep(swept: SweepResult): SweepSummary {
  return { states: swept.states, points: swept.points, runs: swept.runs, ms: swept.ms, cpuMs: swept.cpuMs, complete: swept.complete, ...(swept.stoppedBy ? { stoppedBy: swept.stoppedBy } : {}), ...(swept.pairs ? { pairs: swept.pairs } : {}) };
}

/**
 * A failing state of the sweep as a finding: its one fault anchored where it landed, then the
 * rewrites (an operation, a feature's files, the inputs dropped; the fault made milder), each kept
 * only if the run fails the same way. Saved as found when it cannot be shrunk (see findingOf).
 */
async function sweepFindingOf(options: HuntOptions, failure: SweepFailure, invariant: string | undefined): Promise<Finding> {
  const { pool, journalId } = options;
  const origin = failure.pair ? { pair: failure.where } : { sweep: failure.where };
  const tag = invariant === undefined ? {} : { invariant };
  const unshrinkable = failure.outcome.kind === 'journal-blocked' || failure.outcome.kind === 'journal-out-of-memory' || failure.verdict === 'harness' || failure.verdict === 'usage' || options.stop?.();
  if (unshrinkable) return { ...tag, verdict: failure.verdict, scenario: failure.scenario, outcome: failure.outcome, origin, notShrunk: options.stop?.() ? 'the check was interrupted before it was shrunk' : 'it cannot be shrunk (see check)' };
  if (options.shrinkWorkers !== undefined) pool.grow(options.shrinkWorkers);
  const shrinkStarted = wallMs();
  const measure = async (scenario: Scenario): Promise<number | undefined> => {
    const outcome = await pool.run(journalId, scenario);
    if (outcome.kind !== 'simulated') return undefined;
    const fails = invariant === undefined ? outcomeVerdict(outcome, options.judged) === failure.verdict : tallyCodes(outcome, options.judged).includes(invariant);
    return fails ? outcome.summary.stats.steps : undefined;
  };
  const anchored = await anchorWhereItLanded(pool, journalId, failure.scenario, measure);
  // The sweep's base carries every feature of the shape: those the failure does not need go first (fewerFeatures.ts).
  const fewer = await withFewerFeatures(anchored, measure, options.stop);
  const report = options.onShrink;
  const simpler = await simplifyScenario(fewer.scenario, measure, {
    maxAttempts: 400,
    shape: runShapeOf(options.arbitrary ?? {}, failure.scenario),
    ...(options.stop ? { stop: options.stop } : {}),
    ...(report ? { onProgress: (attempts: number, steps: number, current: Scenario) => report({ attempts, steps, faults: current.faults.length }) } : {}),
  });
  const outcome = simpler.steps === 0 && fewer.dropped.length === 0 && anchored === failure.scenario ? failure.outcome : await pool.run(journalId, simpler.scenario);
  return { ...tag, verdict: failure.verdict, scenario: simpler.scenario, outcome, origin, shrink: { attempts: fewer.attempts + simpler.attempts, steps: fewer.dropped.length + simpler.steps, exhausted: false, ms: wallMs() - shrinkStarted, fromFaults: failure.scenario.faults.length, ...(options.stop?.() ? { stopped: true } : {}) } };
}

/** A failure as a finding: shrunk (to a scenario that still breaks `invariant`, or fails the same way), or saved as found when it cannot be. */
async function findingOf(options: HuntOptions, failure: ExploreFailure, invariant: string | undefined): Promise<Finding> {
  const { pool, journalId } = options;
  const origin = { index: failure.index };
  const tag = invariant === undefined ? {} : { invariant };
  const unshrinkable = failure.divergence?.rerun === 'same'
    ? 'a nondeterministic run may not fail twice'
    : failure.outcome.kind === 'journal-blocked' || failure.outcome.kind === 'journal-out-of-memory'
      ? 'every attempt would cost the hang timeout or a worker'
      : failure.verdict === 'harness'
        ? 'durasim itself failed'
        : failure.verdict === 'usage'
          ? "the journal's inspect() answer cannot be judged: fix the adapter first"
          : undefined;
  if (unshrinkable !== undefined || options.stop?.()) {
    const finding: Finding = { ...tag, verdict: failure.verdict, scenario: failure.value.value_, outcome: failure.outcome, origin, notShrunk: unshrinkable ?? 'the check was interrupted before it was shrunk' };
    if (failure.divergence) finding.divergence = failure.divergence;
    return finding;
  }
  if (options.shrinkWorkers !== undefined) pool.grow(options.shrinkWorkers);
  const shrinkStarted = wallMs();
  // Smaller scenarios must fail the same way: the same verdict (in a tally: the same invariant broken), or (module state that survived a crash) the same difference.
  const measure = async (scenario: Scenario): Promise<number | undefined> => {
    if (failure.divergence) {
      const outcome = await pool.run(journalId, scenario, { detail: 'hash', then: 'fresh' });
      return divergenceOf(outcome, 'fresh') !== undefined && outcome.kind === 'simulated' ? outcome.summary.stats.steps : undefined;
    }
    const outcome = await pool.run(journalId, scenario);
    if (outcome.kind !== 'simulated') return undefined;
    const fails = invariant === undefined ? outcomeVerdict(outcome, options.judged) === failure.verdict : tallyCodes(outcome, options.judged).includes(invariant);
    return fails ? outcome.summary.stats.steps : undefined;
  };
  const stillFails = async (scenario: Scenario): Promise<boolean> => (await measure(scenario)) !== undefined;
  const report = options.onShrink;
  // No smaller scenario leaves the run's shape: its operation kinds, features, fault families (runShape.ts).
  const shape = runShapeOf(options.arbitrary ?? {}, failure.value.value_);
  const shrunk = await shrinkScenario(failure.arbitrary, failure.value as fc.Value<Scenario>, stillFails, {
    parallel: pool.size,
    maxAttempts: options.maxShrinkAttempts ?? 3000,
    keep: (scenario) => inRunShape(scenario, shape),
    ...(options.stop ? { stop: options.stop } : {}),
    ...(report ? { onProgress: (attempts: number, steps: number, current: Scenario) => report({ attempts, steps, faults: current.faults.length }) } : {}),
  });
  // Every fault still placed by number re-placed where it landed (anchorFaults.ts), when the run fails the same way so:
  // the rewrites below then drop an operation or a fault without moving the others out of their windows.
  const anchored = await anchorWhereItLanded(pool, journalId, shrunk.value.value_, measure);
  // Then the rewrites the shrink trees cannot make: two crashes merged into one machine crash, a fault dropped.
  const simpler = await simplifyScenario(anchored, measure, {
    maxAttempts: 200,
    shape,
    ...(options.stop ? { stop: options.stop } : {}),
    ...(report ? { onProgress: (attempts: number, steps: number, current: Scenario) => report({ attempts: shrunk.attempts + attempts, steps: shrunk.steps + steps, faults: current.faults.length }) } : {}),
  });
  const steps = shrunk.steps + simpler.steps;
  const outcome = steps === 0 ? failure.outcome : await pool.run(journalId, simpler.scenario, failure.divergence ? { detail: 'trace', then: 'fresh' } : {});
  const divergence = failure.divergence ? (divergenceOf(outcome, 'fresh') ?? failure.divergence) : undefined;
  return {
    ...tag,
    ...(divergence ? { divergence } : {}),
    verdict: failure.verdict,
    scenario: simpler.scenario,
    outcome,
    origin,
    shrink: { attempts: shrunk.attempts + simpler.attempts, steps, exhausted: shrunk.exhausted, ms: wallMs() - shrinkStarted, fromFaults: failure.value.value_.faults.length, ...(shrunk.stopped || options.stop?.() ? { stopped: true } : {}) },
  };
}
