/**
 * The messages between the worker pool (main thread) and its worker threads, and what one run
 * reports back. Everything here is plain data (structured-clone safe).
 */
import type { Violation } from '../../model/violation.js';
import type { JudgeInput } from '../../model/evidence.js';
import type { Escape } from '../../simulator/sandbox/ambientGuard.js';
import type { StopReason } from '../../simulator/world/runRecords.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import type { JournalBundle } from '../isolation/bundleJournal.js';
import type { ScenarioArbitraryOptions } from '../arbitraries.js';
import type { RunWindows } from '../runner/faultWindows.js';
import type { Toward } from '../runner/windowGuide.js';

/** How much of a run comes back: the verdict's facts; plus the trace hash (re-run checks); plus the trace (a difference found); or everything (reports). */
export type RunDetail = 'summary' | 'hash' | 'trace' | 'full';

/**
 * How the journal's modules meet the run: `shared`, one instance for the worker's lifetime (fast:
 * its code stays warm); `fresh`, evaluated afresh at every incarnation's start and for inspect(),
 * as a restarted process loads them (faithful, and slower: new classes every time defeat V8's caches).
 */
export type ModuleMode = 'shared' | 'fresh';

/**
 * Run it again right after, in the same worker: `same` to compare (determinism); `fresh` to compare
 * with fresh modules (independence), done only when a crash fired (otherwise there is no `again`).
 */
export type Rerun = 'same' | 'fresh';

/**
 * A run the worker draws itself: the `index`-th scenario of `seed` (src/runner/scenarioSource.ts,
 * the same in every thread), and the re-run its ordinal among the shard's runs asks for (explore.ts:
 * the first and every `determinismEvery`-th twice; every `independenceEvery`-th that crashes a
 * worker again with fresh modules). The main thread sends a few numbers instead of a scenario, and
 * draws none itself until one fails.
 */
export interface GeneratedRun {
  seed: number;
  index: number;
  arbitrary: ScenarioArbitraryOptions;
  ordinal: number;
  determinismEvery: number;
  independenceEvery: number;
  /** Send back what the journal wrote to its console (RunSummary.output): check --verbose. */
  output?: boolean;
  /** Send back the fault windows the run hit (RunSummary.windows), and with 'offers' the points it offers the guide to aim at. */
  windows?: 'hit' | 'offers';
  /** An aimed run: its parent run with one fault more (windowGuide.ts). */
  toward?: Toward;
}

export interface RunRequest {
  detail: RunDetail;
  modules: ModuleMode;
  then?: Rerun;
  /** Report each crash's state (the disk's digest right after it): what explore tells crash states apart by. */
  crashStates?: boolean;
  /** Send back what the journal wrote to its console (RunSummary.output): check --verbose. */
  output?: boolean;
  /** Stop the run as this global step completes, before its worker hears of it (SimulateOptions.cutAfterStep). */
  cutAfterStep?: number;
}

export interface RunSummary {
  outcome: StopReason;
  /** The judge's verdict, given in the main thread from the evidence the worker sent (WorkerSummary): no journal code has run where it is judged. */
  violations: Violation[];
  escapes: Escape[];
  /** Only for detail 'hash', 'trace' and 'full': hashing costs about 5% of a run. */
  traceHash?: string;
  stats: SimulationResult['stats'];
  /** What the journal reported going wrong (failed incarnations, inspect() errors). */
  journalErrors: string[];
  /** What was wrong with the journal's inspect() answers: its adapter's bug, judged as bad input (exit 2), never as a finding. */
  inspectProblems?: string[];
  /** With RunRequest.crashStates, each crash that fired: where (trace position), the disk it left (a digest), and the unsynced appends per file just before it; empty otherwise. */
  crashStates: { seq: number; imageDigest: string; unsyncedAppends: Record<string, number> }[];
  trace?: TraceEntry[];
  /** With RunRequest.output or GeneratedRun.output: the run's console output, as trace lines (stdout and stderr entries). */
  output?: string[];
  /** With GeneratedRun.windows: the fault windows the run hit, and the points it offers later runs. */
  windows?: RunWindows;
}

/**
 * The trace as it travels: a column per field (a line's position is its index; actors and ops
 * named once each). The trace is most of the evidence, and a message of a few flat arrays clones
 * in a third of the time its lines as objects take.
 */
export interface TraceColumns {
  actors: string[];
  ops: string[];
  actor: number[];
  op: number[];
  detail: string[];
  /** -1 (here and below): the line has none. */
  incarnation: number[];
  timeMs: number[];
  /** A worker step's number in its incarnation and in the run (what a violation's evidence quotes of its line). */
  step: number[];
  globalStep: number[];
}

/** The evidence the judge reads as the worker sends it (src/pool/runEvidence.ts): JudgeInput with its trace in columns. */
export type WireEvidence = Omit<JudgeInput, 'trace'> & { trace: TraceColumns };

/**
 * A run's summary as the worker sends it: the evidence the judge reads instead of a verdict. The
 * worker runs the journal's code, which can reach everything in its realm (its builtins, the judge's
 * own modules): it never judges. The pool judges on receipt (judgeSummary).
 */
export type WorkerSummary = Omit<RunSummary, 'violations'> & { evidence: WireEvidence };

export interface WorkerData {
  heartbeat: Int32Array;
  /** The journal's memory limit (heap and buffers), MB. */
  maxHeapMb: number;
  /** durasim's public entry, for journals that import "durasim". */
  durasimIndex: string;
  /** The module graph file the main thread loaded (src/pool/loadedGraph.ts): the worker loads the same one. */
  graphFile?: string;
}

export type ToWorker =
  /** `environment`: what the journal's process.env holds while its modules load (check's --env, the config's env, a replayed scenario's). */
  | { type: 'load'; journalId: number; bundle: JournalBundle; environment: Record<string, string> }
  | ({ type: 'run'; id: number; journalId: number; scenario?: unknown; generate?: GeneratedRun } & RunRequest)
  /** The CPU the worker's thread has used so far (the bench's boot and warm-up figures), answered after the runs before it. */
  | { type: 'thread-cpu' }
  /** The pool closed and keeps this worker warm for the next one (warmWorkers.ts): it drops every journal it loaded. */
  | { type: 'forget' };

export type FromWorker =
  /** `retire` (here and below): the journal replaced a builtin the thread runs on (reported among the escapes): the worker is replaced. */
  | { type: 'loaded'; journalId: number; name: string; escapes: Escape[]; readsWorldAtLoad: boolean; retire?: boolean }
  /** `failure`: the house-style parts when the error was durasim's own message about the journal. */
  /** exitCode: the module called process.exit(exitCode) as it loaded. */
  | { type: 'load-failed'; journalId: number; message: string; failure?: { action: string; reason: string; fix: string }; exitCode?: number; escapes: Escape[]; retire?: boolean }
  /** `rerun`: which re-run `again` is (a generated run's, chosen by the worker). */
  | { type: 'result'; id: number; summary: WorkerSummary; result?: SimulationResult; again?: { summary: WorkerSummary; result?: SimulationResult }; rerun?: Rerun; heapMb: number; retire?: boolean }
  /** The run passed the memory limit; the worker exits after sending this. */
  | { type: 'out-of-memory'; id: number; detail: string }
  /** durasim itself failed (a broken simulator invariant, a bug): never the journal's finding. */
  | { type: 'harness-error'; id: number; message: string; stack?: string }
  /** The thread's CPU so far, ms (undefined off Linux). */
  | { type: 'thread-cpu'; ms: number | undefined };
