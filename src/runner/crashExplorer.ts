/**
 * Bounded-exhaustive exploration (`durasim explore`): for one base scenario, every crash point —
 * every worker step, before it and after it — times every distinct crash state reachable there,
 * and every other fault of every family that can land at the step (windowFaults.ts), each
 * continued to the end and judged. With depth 2, the same again at the points of every depth-1
 * state's continuation (a crash after a crash, a crash after a lost response, ...): by default
 * only at those whose step touches something the first fault's step touched, the closest
 * dependencies first (dependentPairs.ts); with `allPairs`, at every point, in exploration order.
 *
 * - Crash states at a point: a process kill (the page cache survives); a machine crash losing
 *   everything unsynced; and, when some file had unsynced appends, the torn states (torn-tail with
 *   a cut, zero or garbage tail; torn-write) and every per-file combination of kept prefixes (at
 *   most `maxPerFileStates` of them, smallest first). States are told apart by a digest of the
 *   disk the crash left (and which workers it killed): two shapes that leave the same disk are one
 *   state, judged once. Points of the fault-free run that cannot differ (after a step and before
 *   the same process's next with nothing between; before and after a step that only reads the
 *   disk: sameCrashStates.ts) are one point: its crash states are tried at the first of them only.
 * - I/O errors at a step (at its "before" point): EIO at every disk call, and ENOSPC after a
 *   one-byte short write at every write; each is a state of its own, continued and judged.
 * - A long outage (longOutage.ts): at every point, a process kill with the worker back a day later;
 *   part of the crash family, tried alone.
 * - The families asked for choose what is tried: crash (process kills), disk (machine crashes and
 *   their torn states), io, intent (a process kill after which the task has changed:
 *   windowFaults.intentChanges), and windowFaults.ts's families; each row counts per family.
 * - Every run loads the journal's modules afresh at every incarnation, as a restarted process
 *   does: nothing survives a crash in module memory.
 * - Runs go through the worker pool in batches; the order of results never depends on timing, so
 *   the table and the first counterexample per row are the same for any number of workers.
 */
import type { Violation } from '../../model/violation.js';
import type { CrashFault, IoErrorFault, Scenario } from '../../simulator/scenario/scenario.js';
import { DOWNTIME_NOTE, longOutage } from './longOutage.js';
import type { CoverageRow, CrashExploration, FirstFault, PairCount, SweptState } from './crashExploration.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import type { RunSummary } from '../pool/protocol.js';
import type { WorkerPool } from '../pool/workerPool.js';
import { judgedViolations, summaryOf, type Judged } from './runVerdict.js';
import { intentChanges, windowFaultsAt, type WindowContext } from './windowFaults.js';
import { DEFAULT_FAULT_KINDS, type FaultKind, type TaskFeature } from '../arbitraries.js';
import { ioShapes, STEP_KINDS, type StepKind } from './stepKind.js';
import { crashPoints, type CrashPoint } from './crashPoints.js';
import { tornShapes, type Shape } from './tornShapes.js';
import { sameCrashStates } from './sameCrashStates.js';
import { dependencyNames, dependentPairs, pairOrder, stepShape, type DependentPair } from './dependentPairs.js';


export { ioShapes, stepKind, STEP_KINDS, type StepKind } from './stepKind.js';
export { crashPoints, type CrashPoint } from './crashPoints.js';

export { tornShapes } from './tornShapes.js';
export type { CoverageRow, CrashExploration, ExploreFinding, FirstFault, PairCount, SweptState } from './crashExploration.js';

export interface ExploreCrashesOptions {
  pool: WorkerPool;
  journalId: number;
  base: Scenario;
  depth: 1 | 2;
  /** Per crash point, at most this many per-file combinations (default 16). */
  maxPerFileStates?: number;
  /** Stop after this many runs (the table says the exploration was cut short). */
  maxRuns?: number;
  judged?: Judged;
  /** The fault families tried at every point (default: every family check draws); crash and io are the crash states and I/O errors. */
  families?: readonly FaultKind[];
  /** The task features in play (the task shape; default: all). */
  features?: readonly TaskFeature[];
  /** After each batch; at depth 2, once the pairs begin, with their count so far. */
  onProgress?: (runs: number, states: number, failing: number, points?: { explored: number; of: number }, pairs?: PairCount) => void;
  /** True once the exploration must stop (a signal): no batch is started after it; the one under way ends and counts. */
  stop?: () => boolean;
  /**
   * Each distinct state as it is judged, in exploration order (check's sweep: sweep.ts). True: no
   * batch is started after this one (the one under way ends and counts: the order stays the same
   * for any number of workers).
   */
  onState?: (state: SweptState) => boolean | void;
  /** Crash points per batch (default 64); fewer stops sooner after a state onState stops at. */
  batch?: number;
  /** This shard's share of the depth-1 points: every n-th step (its before and after point), from the i-th. */
  shard?: { index: number; count: number };
  /** Depth 2: every pair, in exploration order, rather than the pairs dependency keeps, closest first (dependentPairs.ts). */
  allPairs?: boolean;
  /** Called once as depth 2's pairs begin, with the runs made and states judged before them (the caller measures their cost from there). */
  onPairs?: (runsBefore: number, statesBefore: number) => void;
  /**
   * Depth 2 pruned by dependency: the pairs' own bound in runs (check's --pair-runs). Given, the
   * pairs stop at it (PairCount.cutShort) and `maxRuns` bounds depth 1 alone.
   */
  maxPairRuns?: number;
}


const BATCH = 64;

export async function exploreCrashes(options: ExploreCrashesOptions): Promise<CrashExploration> {
  const { pool, journalId, base } = options;
  const maxRuns = options.maxRuns ?? Number.POSITIVE_INFINITY;
  const rows = new Map<StepKind, CoverageRow>(STEP_KINDS.map((kind) => [kind, { kind, points: 0, states: 0, failing: 0, codes: {}, families: {} }]));
  const result: CrashExploration = { rows: [], states: 0, runs: 0, cutShort: false, findings: [], baseViolations: [], escapes: [] };
  const found = new Set<string>();
  // Each run's place in exploration order (the first failing pair is told by it).
  const ordinals = new WeakMap<Scenario, number>();

  const run = async (scenario: Scenario, detail: 'summary' | 'trace'): Promise<RunSummary | undefined> => {
    result.runs++;
    ordinals.set(scenario, result.runs);
    const outcome = await pool.run(journalId, scenario, { detail, modules: 'fresh', crashStates: true });
    if (outcome.kind === 'harness-error') {
      result.harnessError ??= outcome.message;
      return undefined;
    }
    const summary = summaryOf(outcome);
    if (summary?.inspectProblems && summary.inspectProblems.length > 0) {
      result.inspectProblems ??= { problems: summary.inspectProblems, scenario };
      return undefined;
    }
    if (summary && summary.escapes.length > 0) result.escapes.push(...summary.escapes.map((e) => `${e.api}: ${e.message}`));
    return summary;
  };
  /** Nothing more is tried once durasim failed or the journal's answers cannot be judged. */
  const stopped = (): boolean => result.harnessError !== undefined || result.inspectProblems !== undefined;
  const violationsOf = (summary: RunSummary): Violation[] => judgedViolations(summary.violations, options.judged);

  const baseRun = await run(base, 'trace');
  if (baseRun) result.baseSummary = baseRun;
  if (!baseRun || stopped()) return finish();
  // True once onState asked to stop: no batch is started after the one under way.
  let asked = false;
  const families = new Set(options.families ?? DEFAULT_FAULT_KINDS);
  const windows: WindowContext = { base, families, usesStore: (baseRun.trace ?? []).some((e) => e.actor === 'store'), ...(options.features ? { features: options.features } : {}) };
  result.baseViolations = violationsOf(baseRun);
  if (result.baseViolations.length > 0) return finish();

  type FirstState = { scenario: Scenario; seq: number; point: CrashPoint; fails: boolean; fault: FirstFault };
  /** `same`: the point's crash states are the previous point's (sameCrashStates.ts): only the faults that strike its step are tried. */
  type Item = { start: Scenario; point: CrashPoint; firstFails?: boolean; first?: FirstFault; same?: boolean };
  /**
   * Explores each item's point on top of its start scenario (the base, or a depth-1 state);
   * `follow` sees each distinct state and its run's trace (depth 2 pruned by dependency).
   */
  const explorePoints = async (items: readonly Item[], countPoints: boolean, follow?: (state: FirstState, trace: readonly TraceEntry[]) => void, pairBound?: number): Promise<FirstState[]> => {
    const distinct: FirstState[] = [];
    const detail = follow ? 'trace' : 'summary';
    const size = options.batch ?? BATCH;
    for (let i = 0; i < items.length && !stopped() && !asked; i += size) {
      if (pairBound !== undefined && result.runs >= pairBound) {
        if (result.pairs) result.pairs.cutShort = true;
        break;
      }
      if (pairBound === undefined && result.runs >= maxRuns) {
        result.cutShort = true;
        break;
      }
      if (options.stop?.()) {
        result.stopped = true;
        break;
      }
      const batchItems = items.slice(i, i + size);
      const batch = batchItems.map((item) => item.point);
      if (countPoints && result.points) result.points.explored += batch.length;
      if (!countPoints && result.pairs) result.pairs.tried += batch.length;
      const seen = batch.map(() => new Set<string>());
      /** Counts the state a run reached at point p (`key`: how it is told apart), once per distinct state. */
      const judgeState = (p: number, family: FaultKind, scenario: Scenario, summary: RunSummary | undefined, key: string | undefined, seq: number | undefined, note?: string): void => {
        const point = batch[p] as CrashPoint;
        if (!summary || key === undefined || seq === undefined || seen[p]?.has(key)) return;
        seen[p]?.add(key);
        const violations = violationsOf(summary);
        const fault: FirstFault = { family, kind: point.kind, point, ...(note !== undefined ? { note } : {}) };
        const state = { scenario, seq, point, fails: violations.length > 0, fault };
        // A long outage is tried alone (longOutage.ts): it seeds no pair.
        if (note !== DOWNTIME_NOTE) {
          distinct.push(state);
          follow?.(state, summary.trace ?? []);
        }
        const first = batchItems[p]?.first;
        if (options.onState?.({ scenario, summary, ...fault, ...(first ? { first } : {}) }) === true) asked = true;
        const row = rows.get(point.kind) as CoverageRow;
        const tally = (row.families[family] ??= { tried: 0, failing: 0 });
        tally.tried++;
        row.states++;
        result.states++;
        if (violations.length === 0) return;
        if (!countPoints && result.pairs && result.pairs.firstFailingRun === undefined && batchItems[p]?.firstFails === false) result.pairs.firstFailingRun = ordinals.get(scenario);
        tally.failing++;
        row.failing++;
        for (const code of new Set(violations.map((v) => v.code))) row.codes[code] = (row.codes[code] ?? 0) + 1;
        // The first counterexample per step kind and invariant for crashes and I/O errors; per family and invariant for the rest.
        const firstKey = family === 'crash' || family === 'io' ? `${point.kind}/${violations[0]?.code}` : `${family}/${violations[0]?.code}`;
        if (!found.has(firstKey)) {
          found.add(firstKey);
          result.findings.push({ kind: point.kind, family, scenario, violations, ...(note !== undefined ? { note } : {}) });
        }
      };
      const crashState = (p: number, scenario: Scenario, summary: RunSummary | undefined): void => {
        const state = summary?.crashStates.at(-1);
        const kill = (scenario.faults.at(-1) as CrashFault).mode === 'keep-all';
        judgeState(p, kill ? 'crash' : 'disk', scenario, summary, state && `${state.imageDigest}/${kill ? 'kill' : 'machine'}`, state?.seq);
      };
      const withCrash = (p: number, shape: Shape): Scenario => {
        const { start, point } = batchItems[p] as Item;
        const fault: CrashFault = { kind: 'crash', process: point.pid, incarnation: point.incarnation, step: point.step, when: point.when, ...shape };
        return { ...start, faults: [...start.faults, fault] };
      };
      if (countPoints) for (const point of batch) (rows.get(point.kind) as CoverageRow).points++;
      // The two states every point has (a process kill; a machine crash losing what is unsynced), then the torn and per-file ones where something was unsynced.
      const modes = [...(families.has('crash') ? ['keep-all' as const] : []), ...(families.has('disk') ? ['lose-unsynced' as const] : [])];
      const plain = await Promise.all(batch.flatMap((_, p) => (batchItems[p]?.same === true ? [] : modes).map(async (mode) => {
        const scenario = withCrash(p, { mode });
        return { p, mode, scenario, summary: await run(scenario, detail) };
      })));
      for (const { p, scenario, summary } of plain) crashState(p, scenario, summary);
      // A process kill after which something changed: the task (the intent family), then the time the worker was down (a long
      // outage, crash family, first level only: longOutage.ts); each state told apart by the change and the disk it left.
      const killed = (p: number): Scenario => withCrash(p, { mode: 'keep-all' });
      const afterKill = [
        ...batchItems.flatMap((item, p) => (families.has('intent') && item.same !== true ? intentChanges(item.start) : []).map(({ label, change }) => ({ p, family: 'intent' as const, key: label, note: `then ${label}`, scenario: { ...killed(p), ...change } }))),
        ...batchItems.flatMap((item, p) => (countPoints && families.has('crash') && item.same !== true ? [longOutage(item.start, killed(p))] : []).flatMap((scenario) => (scenario ? [{ p, family: 'crash' as const, key: 'downtime', note: DOWNTIME_NOTE, scenario }] : []))),
      ];
      for (const { p, family, key, note, scenario, summary } of await Promise.all(afterKill.map(async (item) => ({ ...item, summary: await run(item.scenario, detail) })))) {
        const state = summary?.crashStates.at(-1);
        judgeState(p, family, scenario, summary, state && `${key}/${state.imageDigest}`, state?.seq, note);
      }
      const torn = await Promise.all(batch.flatMap((_, p) => {
        const unsynced = plain.find((r) => r.p === p && r.mode === 'lose-unsynced')?.summary?.crashStates.at(-1)?.unsyncedAppends ?? {};
        return tornShapes(unsynced, options.maxPerFileStates ?? 16).map(async (shape) => {
          const scenario = withCrash(p, shape);
          return { p, scenario, summary: await run(scenario, detail) };
        });
      }));
      for (const { p, scenario, summary } of torn) crashState(p, scenario, summary);
      // An I/O error in the step (once per step: at its "before" point).
      const io = await Promise.all(batchItems.flatMap(({ start, point }, p) => (point.when === 'before' && families.has('io') ? ioShapes(point.kind) : []).map(async (shape) => {
        const fault: IoErrorFault = { kind: 'io-error', process: point.pid, incarnation: point.incarnation, step: point.step, ...shape };
        const scenario = { ...start, faults: [...start.faults, fault] };
        return { p, scenario, key: `io/${shape.error}/${shape.writtenBytes ?? 0}`, summary: await run(scenario, detail) };
      })));
      for (const { p, scenario, key, summary } of io) judgeState(p, 'io', scenario, summary, key, batch[p]?.seq);
      // Every other family's faults that can land there (once per step: at its "before" point).
      const others = await Promise.all(batchItems.flatMap(({ start, point }, p) => (point.when === 'before' ? windowFaultsAt(point, { ...windows, base: start }) : []).map(async ({ family, fault, label, store, schedule }) => {
        const scenario = { ...start, ...(store ? { store } : {}), ...(schedule ? { schedule } : {}), faults: [...start.faults, fault] };
        return { p, family, scenario, key: label, summary: await run(scenario, detail), ...(schedule ? { note: 'the newcomer taking the first step once both are ready' } : {}) };
      })));
      for (const { p, family, scenario, key, summary, note } of others) judgeState(p, family, scenario, summary, key, batch[p]?.seq, note);
      options.onProgress?.(result.runs, result.states, result.findings.length, result.points, countPoints ? undefined : result.pairs);
    }
    return distinct;
  };

  // A shard's share: whole steps (a step's before and after points together), every n-th from the i-th.
  const shard = options.shard;
  const everyPoint = crashPoints(baseRun.trace ?? [], -1, dependencyNames(base));
  const same = sameCrashStates(baseRun.trace ?? [], everyPoint);
  const firstLevelItems = everyPoint.map((point, i) => ({ start: base, point, same: same[i] === true })).filter((_, i) => shard === undefined || Math.floor(i / 2) % shard.count === shard.index - 1);
  const points = firstLevelItems.map((item) => item.point);
  result.points = { explored: 0, of: points.length };
  if (options.depth === 1) {
    await explorePoints(firstLevelItems, true);
    return finish();
  }
  const pairs: PairCount = { all: options.allPairs === true, total: 0, kept: 0, byKind: { key: 0, file: 0, store: 0, lease: 0 }, partial: false, tried: 0, runs: 0 };
  /** Counts a depth-1 state's pairs: every point of its continuation, and those dependency keeps. */
  // The fault-free run's steps, numbers aside: a pair whose second step is none of them is on the first fault's own path.
  const baseShapes = new Set(crashPoints(baseRun.trace ?? []).map((point) => stepShape(point.line)));
  const count = (first: number, state: FirstState, continuation: readonly CrashPoint[]): DependentPair<CrashPoint>[] => {
    const kept = dependentPairs(first, state.point, continuation, baseShapes);
    pairs.total += continuation.length;
    pairs.kept += kept.length;
    for (const pair of kept) pairs.byKind[pair.kind]++;
    return kept;
  };
  if (options.allPairs) {
    // Every pair, in exploration order: each depth-1 state's continuation run again for its trace.
    const firstLevel = await explorePoints(firstLevelItems, true);
    result.pairs = pairs;
    options.onPairs?.(result.runs, result.states);
    const before = result.runs;
    for (const [i, first] of firstLevel.entries()) {
      if (stopped() || asked || result.runs >= maxRuns || options.stop?.()) {
        result.cutShort ||= result.runs >= maxRuns;
        if (options.stop?.()) result.stopped = true;
        break;
      }
      const continuation = await run(first.scenario, 'trace');
      if (!continuation) continue;
      const second = crashPoints(continuation.trace ?? [], first.seq, dependencyNames(first.scenario));
      count(i, first, second);
      await explorePoints(second.map((point) => ({ start: first.scenario, point, firstFails: first.fails })), false);
      pairs.runs = result.runs - before;
    }
    pairs.partial = result.cutShort || result.stopped === true || asked || stopped();
    pairs.runs = result.runs - before;
    return finish();
  }
  // Pruned by dependency: each depth-1 state's continuation read from its own run; the pairs kept tried closest first.
  const starts: FirstState[] = [];
  const kept: DependentPair<CrashPoint>[] = [];
  await explorePoints(firstLevelItems, true, (state, trace) => {
    kept.push(...count(starts.length, state, crashPoints(trace, state.seq, dependencyNames(state.scenario))));
    starts.push(state);
  });
  pairs.partial = result.cutShort || result.stopped === true || asked || stopped();
  result.pairs = pairs;
  const ordered = pairOrder(kept);
  options.onPairs?.(result.runs, result.states);
  const before = result.runs;
  await explorePoints(ordered.map((pair) => {
    const first = starts[pair.first] as FirstState;
    return { start: first.scenario, point: pair.point, firstFails: first.fails, first: first.fault };
  }), false, undefined, options.maxPairRuns !== undefined ? before + options.maxPairRuns : undefined);
  pairs.runs = result.runs - before;
  return finish();

  function finish(): CrashExploration {
    result.rows = [...rows.values()].filter((row) => row.points > 0 || row.states > 0);
    return result;
  }
}
