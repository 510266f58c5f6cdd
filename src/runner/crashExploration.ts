/**
 * What a crash exploration (crashExplorer.ts) returns: the states it judged, the coverage per step kind, its
 * findings, and depth 2's pair counts.
 */
import type { InvariantCode, Violation } from '../../model/violation.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import type { RunSummary } from '../pool/protocol.js';
import type { FaultKind } from '../arbitraries.js';
import type { StepKind } from './stepKind.js';
import type { TouchKind } from './stepTouches.js';
import type { CrashPoint } from './crashPoints.js';

/** A distinct state the exploration judged: the scenario that reached it, its run, and where. */
export interface SweptState {
  scenario: Scenario;
  summary: RunSummary;
  family: FaultKind;
  kind: StepKind;
  /** The crash point it is at: its trace line and place. */
  point: CrashPoint;
  note?: string;
  /** At depth 2: the depth-1 state this second fault was added to (its first fault). */
  first?: FirstFault;
}

/** A depth-1 state's fault in words' parts: its family, the kind of its step, the point, what else it changed. */
export interface FirstFault {
  family: FaultKind;
  kind: StepKind;
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
  /** Depth 2: the pairs (a depth-1 state × a point of its continuation), how many dependency kept, how many were tried. */
  pairs?: PairCount;
  /** Calls that reached around the simulated world, from any run (a sandbox finding). */
  escapes: string[];
  /** durasim's own failure, if any (never a finding). */
  harnessError?: string;
  /** The first run whose inspect() answers the judge could not read (the adapter's bad input: exploration stops). */
  inspectProblems?: { problems: string[]; scenario: Scenario };
}

/** Depth 2's pairs: a pair is a distinct depth-1 state and one point (a step, before or after) of its continuation after the first fault. */
export interface PairCount {
  /** Every pair was tried (--all-pairs), not only those dependency keeps. */
  all: boolean;
  /** Pairs over the depth-1 states counted (every one unless the exploration stopped before depth 1 ended, or before every continuation was run with --all-pairs: `partial`). */
  total: number;
  /** The pairs whose second step touches something the first fault's step touched, per the closest thing both touch. */
  kept: number;
  byKind: Record<TouchKind, number>;
  partial: boolean;
  /** Pairs whose second point was tried (their faults run). */
  tried: number;
  /** Runs spent on pairs (their second faults; with --all-pairs also each continuation's own run). */
  runs: number;
  /** The exploration's run count at the first failing pair on a depth-1 state that did not fail alone (every run before it and it). */
  firstFailingRun?: number;
  /** The pairs' own bound (maxPairRuns) was reached before every kept pair was tried. */
  cutShort?: boolean;
}
