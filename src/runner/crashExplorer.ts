/**
 * Bounded-exhaustive exploration (`durasim explore`): for one base scenario, every crash point —
 * every worker step, before it and after it — times every distinct crash state reachable there,
 * and every other fault of every family that can land at the step (windowFaults.ts), each
 * continued to the end and judged. With depth 2, the same again at every point of every depth-1
 * continuation (every pair: a crash after a crash, a crash after a lost response, ...).
 *
 * - Crash states at a point: a process kill (the page cache survives); a machine crash losing
 *   everything unsynced; and, when some file had unsynced appends, the torn states (torn-tail with
 *   a cut, zero or garbage tail; torn-write) and every per-file combination of kept prefixes (at
 *   most `maxPerFileStates` of them, smallest first). States are told apart by a digest of the
 *   disk the crash left (and which workers it killed): two shapes that leave the same disk are one
 *   state, judged once.
 * - I/O errors at a step (at its "before" point): EIO at every disk call, and ENOSPC after a
 *   one-byte short write at every write; each is a state of its own, continued and judged.
 * - The families asked for choose what is tried: crash (process kills), disk (machine crashes and
 *   their torn states), io, intent (a process kill after which the task has changed:
 *   windowFaults.intentChanges), and windowFaults.ts's families; each row counts per family.
 * - Every run loads the journal's modules afresh at every incarnation, as a restarted process
 *   does: nothing survives a crash in module memory.
 * - Runs go through the worker pool in batches; the order of results never depends on timing, so
 *   the table and the first counterexample per row are the same for any number of workers.
 */
import type { InvariantCode, Violation } from '../../model/violation.js';
import type { CrashFault, IoErrorFault, Scenario } from '../../simulator/scenario/scenario.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import type { RunSummary } from '../pool/protocol.js';
import type { WorkerPool } from '../pool/workerPool.js';
import { judgedViolations, summaryOf, type Judged } from './runVerdict.js';
import { intentChanges, windowFaultsAt, type WindowContext, type WindowPoint } from './windowFaults.js';
import { DEFAULT_FAULT_KINDS, type FaultKind, type TaskFeature } from '../arbitraries.js';
import { ioShapes, STEP_KINDS, stepKind, type StepKind } from './stepKind.js';

export { ioShapes, stepKind, STEP_KINDS, type StepKind } from './stepKind.js';

export interface CrashPoint extends WindowPoint {
  when: 'before' | 'after';
  kind: StepKind;
  /** The step's trace line, for the reader. */
  line: string;
  /** The step's position in the trace. */
  seq: number;
}

/**
 * Every crash point of a trace after position `afterSeq`: each worker step, before and after; with
 * what the step asked of the service and the store (their trace lines follow it) and the keys the
 * same worker's previous step put in the store.
 */
export function crashPoints(trace: readonly TraceEntry[], afterSeq = -1): CrashPoint[] {
  const points: CrashPoint[] = [];
  let current: { requests: number[]; storeCalls: number[]; puts: string[] } | undefined;
  const lastPuts = new Map<string, string[]>();
  for (const entry of trace) {
    if (entry.actor === 'service' && entry.op === 'receive') {
      const request = /^#(\d+)/.exec(entry.detail)?.[1];
      if (request !== undefined) current?.requests.push(Number(request));
    }
    if (entry.actor === 'store') {
      const call = /^#(\d+) \S+ (put|delete) (\S+).* → ok/.exec(entry.detail) ?? /^#(\d+)/.exec(entry.detail);
      // (a store line that is no call, its restart, names none)
      if (call?.[1] !== undefined) current?.storeCalls.push(Number(call[1]));
      if (call?.[3] !== undefined && call[2] === 'put') current?.puts.push(call[3]);
    }
    if (entry.step === undefined || entry.op.endsWith(':result') || !entry.actor.startsWith('worker-')) continue;
    const actor = `${entry.actor}#${entry.incarnation ?? 0}`;
    const window = { requests: [] as number[], storeCalls: [] as number[], puts: [] as string[] };
    const storeKeys = lastPuts.get(actor) ?? [];
    lastPuts.set(actor, window.puts);
    current = window;
    if (entry.seq <= afterSeq) continue;
    const at = { pid: Number(entry.actor.slice('worker-'.length)), incarnation: entry.incarnation ?? 0, step: entry.step, globalStep: entry.globalStep ?? 0, kind: stepKind(entry.op, entry.detail), line: `${entry.op} ${entry.detail}`, seq: entry.seq };
    points.push({ ...at, when: 'before', requests: window.requests, storeCalls: window.storeCalls, storeKeys }, { ...at, when: 'after', requests: window.requests, storeCalls: window.storeCalls, storeKeys });
  }
  return points;
}

type Shape = Pick<CrashFault, 'mode' | 'tornKeepBytes' | 'tail' | 'keep'>;

/** The machine-crash shapes beyond lose-unsynced worth trying when files had unsynced appends (`unsynced`: count per path). */
export function tornShapes(unsynced: Readonly<Record<string, number>>, maxPerFileStates: number): Shape[] {
  const paths = Object.keys(unsynced).sort().filter((p) => (unsynced[p] ?? 0) > 0);
  if (paths.length === 0) return [];
  const shapes: Shape[] = [{ mode: 'torn-tail' }, { mode: 'torn-tail', tail: 'zeros' }, { mode: 'torn-tail', tail: 'garbage' }, { mode: 'torn-write' }];
  // Every per-file combination of kept prefixes but all-zero (that is lose-unsynced), fewest kept appends first.
  let combos: Record<string, number>[] = [{}];
  for (const path of paths) combos = combos.flatMap((c) => Array.from({ length: (unsynced[path] ?? 0) + 1 }, (_, n) => (n === 0 ? c : { ...c, [path]: n })));
  const total = (c: Record<string, number>): number => Object.values(c).reduce((a, b) => a + b, 0);
  combos = combos.filter((c) => total(c) > 0).sort((a, b) => total(a) - total(b)).slice(0, maxPerFileStates);
  return [...shapes, ...combos.map((keep) => ({ mode: 'per-file' as const, keep }))];
}

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
  onProgress?: (runs: number, states: number, failing: number, points?: { explored: number; of: number }) => void;
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
}

/** A distinct state the exploration judged: the scenario that reached it, its run, and where. */
export interface SweptState {
  scenario: Scenario;
  summary: RunSummary;
  family: FaultKind;
  kind: StepKind;
  /** The crash point it is at: its trace line and place. */
  point: CrashPoint;
  note?: string;
}

export interface CoverageRow {
  kind: StepKind;
  /** Crash points at steps of this kind (before and after count as two). */
  points: number;
  /** Distinct crash states explored there. */
  states: number;
  /** States whose continuation broke an invariant. */
  failing: number;
  /** Failing states per invariant. */
  codes: Partial<Record<InvariantCode, number>>;
  /** Per fault family: the faults tried at steps of this kind (crash states under crash, I/O errors under io), and how many failed. */
  families: Partial<Record<FaultKind, { tried: number; failing: number }>>;
}

export interface ExploreFinding {
  kind: StepKind;
  family: FaultKind;
  /** What else the scenario changed, when the last fault does not say it all (the intent family's change). */
  note?: string;
  scenario: Scenario;
  violations: Violation[];
}

export interface CrashExploration {
  rows: CoverageRow[];
  states: number;
  runs: number;
  /** The run budget ran out before every state was explored. */
  cutShort: boolean;
  /** `stop` ended it before every state was explored. */
  stopped?: boolean;
  /** The first failing state per step kind and invariant, in exploration order. */
  findings: ExploreFinding[];
  /** The base scenario's own violations (exploration stops: every continuation would inherit them). */
  baseViolations: Violation[];
  /** The base scenario's run (undefined when durasim failed on it). */
  baseSummary?: RunSummary;
  /** Crash points of the base run at depth 1 (of this shard), and how many of them were explored. */
  points?: { explored: number; of: number };
  /** Calls that reached around the simulated world, from any run (a sandbox finding). */
  escapes: string[];
  /** durasim's own failure, if any (never a finding). */
  harnessError?: string;
  /** The first run whose inspect() answers the judge could not read (the adapter's bad input: exploration stops). */
  inspectProblems?: { problems: string[]; scenario: Scenario };
}

const BATCH = 64;

export async function exploreCrashes(options: ExploreCrashesOptions): Promise<CrashExploration> {
  const { pool, journalId, base } = options;
  const maxRuns = options.maxRuns ?? Number.POSITIVE_INFINITY;
  const rows = new Map<StepKind, CoverageRow>(STEP_KINDS.map((kind) => [kind, { kind, points: 0, states: 0, failing: 0, codes: {}, families: {} }]));
  const result: CrashExploration = { rows: [], states: 0, runs: 0, cutShort: false, findings: [], baseViolations: [], escapes: [] };
  const found = new Set<string>();

  const run = async (scenario: Scenario, detail: 'summary' | 'trace'): Promise<RunSummary | undefined> => {
    result.runs++;
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

  /** Explores every point of `trace` after `afterSeq`, on top of `start` (the scenario whose run it is: the base, or a depth-1 one). */
  const explorePoints = async (trace: readonly TraceEntry[], afterSeq: number, start: Scenario, countPoints: boolean): Promise<{ scenario: Scenario; seq: number }[]> => {
    const distinct: { scenario: Scenario; seq: number }[] = [];
    const shard = countPoints ? options.shard : undefined;
    // A shard's share: whole steps (a step's before and after points together), every n-th from the i-th.
    const points = crashPoints(trace, afterSeq).filter((_, i) => shard === undefined || Math.floor(i / 2) % shard.count === shard.index - 1);
    if (countPoints) result.points = { explored: 0, of: points.length };
    const size = options.batch ?? BATCH;
    for (let i = 0; i < points.length && !stopped() && !asked; i += size) {
      if (result.runs >= maxRuns) {
        result.cutShort = true;
        break;
      }
      if (options.stop?.()) {
        result.stopped = true;
        break;
      }
      const batch = points.slice(i, i + size);
      if (countPoints && result.points) result.points.explored += batch.length;
      const seen = batch.map(() => new Set<string>());
      /** Counts the state a run reached at point p (`key`: how it is told apart), once per distinct state. */
      const judgeState = (p: number, family: FaultKind, scenario: Scenario, summary: RunSummary | undefined, key: string | undefined, seq: number | undefined, note?: string): void => {
        const point = batch[p] as CrashPoint;
        if (!summary || key === undefined || seq === undefined || seen[p]?.has(key)) return;
        seen[p]?.add(key);
        distinct.push({ scenario, seq });
        if (options.onState?.({ scenario, summary, family, kind: point.kind, point, ...(note !== undefined ? { note } : {}) }) === true) asked = true;
        const row = rows.get(point.kind) as CoverageRow;
        const tally = (row.families[family] ??= { tried: 0, failing: 0 });
        tally.tried++;
        row.states++;
        result.states++;
        const violations = violationsOf(summary);
        if (violations.length === 0) return;
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
      const withCrash = (point: CrashPoint, shape: Shape): Scenario => {
        const fault: CrashFault = { kind: 'crash', process: point.pid, incarnation: point.incarnation, step: point.step, when: point.when, ...shape };
        return { ...start, faults: [...start.faults, fault] };
      };
      if (countPoints) for (const point of batch) (rows.get(point.kind) as CoverageRow).points++;
      // The two states every point has (a process kill; a machine crash losing what is unsynced), then the torn and per-file ones where something was unsynced.
      const modes = [...(families.has('crash') ? ['keep-all' as const] : []), ...(families.has('disk') ? ['lose-unsynced' as const] : [])];
      const plain = await Promise.all(batch.flatMap((point, p) => modes.map(async (mode) => {
        const scenario = withCrash(point, { mode });
        return { p, mode, scenario, summary: await run(scenario, 'summary') };
      })));
      for (const { p, scenario, summary } of plain) crashState(p, scenario, summary);
      // A process kill after which the task has changed (the intent family).
      const intents = families.has('intent') ? intentChanges(start) : [];
      const changed = await Promise.all(batch.flatMap((point, p) => intents.map(async ({ label, change }) => {
        const scenario = { ...withCrash(point, { mode: 'keep-all' }), ...change };
        return { p, label, scenario, summary: await run(scenario, 'summary') };
      })));
      for (const { p, label, scenario, summary } of changed) {
        const state = summary?.crashStates.at(-1);
        judgeState(p, 'intent', scenario, summary, state && `${label}/${state.imageDigest}`, state?.seq, `then ${label}`);
      }
      const torn = await Promise.all(batch.flatMap((point, p) => {
        const unsynced = plain.find((r) => r.p === p && r.mode === 'lose-unsynced')?.summary?.crashStates.at(-1)?.unsyncedAppends ?? {};
        return tornShapes(unsynced, options.maxPerFileStates ?? 16).map(async (shape) => {
          const scenario = withCrash(point, shape);
          return { p, scenario, summary: await run(scenario, 'summary') };
        });
      }));
      for (const { p, scenario, summary } of torn) crashState(p, scenario, summary);
      // An I/O error in the step (once per step: at its "before" point).
      const io = await Promise.all(batch.flatMap((point, p) => (point.when === 'before' && families.has('io') ? ioShapes(point.kind) : []).map(async (shape) => {
        const fault: IoErrorFault = { kind: 'io-error', process: point.pid, incarnation: point.incarnation, step: point.step, ...shape };
        const scenario = { ...start, faults: [...start.faults, fault] };
        return { p, scenario, key: `io/${shape.error}/${shape.writtenBytes ?? 0}`, summary: await run(scenario, 'summary') };
      })));
      for (const { p, scenario, key, summary } of io) judgeState(p, 'io', scenario, summary, key, batch[p]?.seq);
      // Every other family's faults that can land there (once per step: at its "before" point).
      const others = await Promise.all(batch.flatMap((point, p) => (point.when === 'before' ? windowFaultsAt(point, { ...windows, base: start }) : []).map(async ({ family, fault, label, store, schedule }) => {
        const scenario = { ...start, ...(store ? { store } : {}), ...(schedule ? { schedule } : {}), faults: [...start.faults, fault] };
        return { p, family, scenario, key: label, summary: await run(scenario, 'summary'), ...(schedule ? { note: 'the newcomer taking the first step once both are ready' } : {}) };
      })));
      for (const { p, family, scenario, key, summary, note } of others) judgeState(p, family, scenario, summary, key, batch[p]?.seq, note);
      options.onProgress?.(result.runs, result.states, result.findings.length, result.points);
    }
    return distinct;
  };

  const firstLevel = await explorePoints(baseRun.trace ?? [], -1, base, true);
  if (options.depth === 2) {
    for (const first of firstLevel) {
      if (stopped() || asked || result.runs >= maxRuns || options.stop?.()) {
        result.cutShort ||= result.runs >= maxRuns;
        if (options.stop?.()) result.stopped = true;
        break;
      }
      const continuation = await run(first.scenario, 'trace');
      if (continuation) await explorePoints(continuation.trace ?? [], first.seq, first.scenario, false);
    }
  }
  return finish();

  function finish(): CrashExploration {
    result.rows = [...rows.values()].filter((row) => row.points > 0 || row.states > 0);
    return result;
  }
}
