/**
 * What one `durasim check` (or replay) found, as data: every report file is derived from this.
 */
import { invariantKind, type Violation } from '../../model/violation.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import { escapeFix } from '../../simulator/sandbox/escapeCatalog.js';
import type { RunVerdict } from '../runner/runVerdict.js';
import type { PairsResult } from '../runner/sweep.js';

export interface RunReport {
  command: 'check' | 'replay';
  journal: string;
  journalSpec: string;
  seed?: number;
  faults?: string[];
  /** The task shape the runs were drawn from, where it was narrowed (durasim.config.json, --operations, --features, --task). */
  shape?: { operations?: string[]; features?: string[]; task?: string; config?: string };
  /** The invariants the counterexample breaks with its faults removed, replayed (runner/confirm.ts): what "set off by" rests on. */
  faultFree?: string[];
  shard?: { index: number; count: number };
  runsPlanned?: number;
  runsExecuted: number;
  elapsedMs: number;
  timeBudgetHit?: boolean;
  /** A signal stopped the check (Ctrl-C: SIGINT; a CI cancel: SIGTERM) after `afterRuns` of its `ofRuns` generated runs (this shard's); the verdict is of the runs made. */
  interrupted?: { afterRuns: number; ofRuns: number; signal: string };
  verdict: RunVerdict;
  exitCode: number;
  violations: Violation[];
  /** Worker threads the runs used. */
  workers?: number;
  /** Clean runs re-run to check determinism, and with fresh modules to check independence from module memory. */
  determinismChecks?: number;
  independenceChecks?: number;
  /** How the counterexample was shrunk, or why it was not. */
  shrink?: { attempts: number; steps: number; exhausted: boolean; ms: number; fromFaults: number; stopped?: boolean };
  notShrunk?: string;
  /** check --confirm: the first counterexample run in real processes (src/confirm/), its verdict and what it printed. */
  /** check --confirm: the real run's verdict and lines; traced, the disk calls per worker step, simulated beside real, with the real system calls. */
  confirmation?: { verdict: string; lines: string[]; calls?: string[] };
  /** What the journal reported going wrong, shown before the violations. */
  journalErrors?: string[];
  /**
   * Stored regressions not replayed: outside the task shape (an operation kind or a feature it leaves
   * out: `outside` names them), or using a fault family the run does not draw (`outside` names the families).
   */
  regressionsSkipped?: { file: string; reason: 'shape' | 'faults'; outside: string[] }[];
  /** What the reader must know before the verdict: replay of a file found with another journal than the one run (cli/findingJournal.ts). */
  warnings?: string[];
  /** Why the run counts as a sandbox failure (nondeterminism or an escape), when it does. */
  sandbox?: string;
  counterexample?: Scenario;
  result?: SimulationResult;
  /** The one command that replays the counterexample. */
  replayCommand?: string;
  regressionFile?: string;
  /** The invariants judged, when not all of them (--invariants, --safety-only). */
  invariantsJudged?: string[];
  /** A liveness finding of an earlier run that the headline (a safety finding, an escape) outranks: shrunk and saved too. */
  also?: { verdict: RunVerdict; violations: string[]; regressionFile: string; replayCommand: string; run?: number | undefined };
  /** --tally: failing runs per invariant ('sandbox' for escapes and differences). */
  tally?: Record<string, number>;
  /** --tally: one shrunk counterexample per invariant, saved in the regression corpus. */
  counterexamples?: { invariant: string; verdict: RunVerdict; violations: string[]; regressionFile: string; replayCommand: string; faults: number; notShrunk?: string }[];
  /** What the generated runs simulated (their first runs, not the re-runs): steps and trace entries, summed. */
  work?: { steps: number; traceEntries: number; unroutedRequests?: number; strayRequests?: number; runsAstray?: number };
  /** The fault windows the generated runs hit (runner/faultWindows.ts), and the runs aimed at a window none had hit. */
  coverage?: { windows: string[]; reachable?: number; aimedRuns: number; aimedHits: number };
  /** check --sweep: the single-fault states judged before the drawn runs, at how many of the fault-free run's crash points, its runs (not among runsExecuted), wall and CPU ms. */
  sweep?: { states: number; points: { explored: number; of: number }; runs: number; ms: number; cpuMs: number; complete: boolean; stoppedBy?: string; pairs?: PairsResult };
  /**
   * What the command cost, in this process (every thread: the main one, the workers, V8's helpers;
   * not esbuild's own process when it bundled the journal): CPU in all, CPU until the first
   * generated run came back (start-up, the journal's bundle, the workers' boot, the stored
   * regressions), and wall time since the process started.
   */
  cost?: { cpuMs: number; cpuMsBeforeFirstRun?: number; wallMs: number };
}

/**
 * What the journal itself reported going wrong: incarnations that exited with an error, and
 * inspect() calls that threw (its records then read as empty, which the judge reports as missing).
 */
export function journalErrors(result: SimulationResult): string[] {
  const failed = new Map<string, { incarnations: number[]; stack?: string }>();
  for (const exit of result.exits) {
    if (exit.error === undefined) continue;
    const key = `worker-${exit.pid}\u0000${exit.error}`;
    const seen = failed.get(key) ?? { incarnations: [], ...(exit.stack ? { stack: exit.stack } : {}) };
    seen.incarnations.push(exit.incarnation);
    failed.set(key, seen);
  }
  return [
    ...[...failed].map(([key, { incarnations, stack }]) => {
      const [worker, error] = key.split('\u0000') as [string, string];
      const which = incarnations.length === 1 ? `#${incarnations[0]}` : ` (incarnations ${incarnations.join(', ')})`;
      // The stack's first frames, one a line: where the journal's own code threw.
      const frames = stack ? stack.split('\n').slice(0, 6).map((frame) => `\n    ${frame}`).join('') : '';
      return `${worker}${which} exited with ${error}${frames}`;
    }),
    ...[...new Set(result.inspectErrors)].map((message) => `inspect() threw: ${message}`),
  ];
}

/** Who escaped: worker-<pid>#<incarnation>, inspect() (pid -1), or code no simulated process ran (pid -2). */
export function escapeWho(escape: { pid: number; incarnation: number }): string {
  if (escape.pid === -2) return 'code in no process';
  return escape.pid < 0 ? 'inspect()' : `worker-${escape.pid}#${escape.incarnation}`;
}

export function verdictOf(violations: readonly Violation[], result: { escapes: SimulationResult['escapes'] } | undefined, nondeterministic: string | false): { verdict: RunVerdict; sandbox?: string } {
  if (nondeterministic) return { verdict: 'sandbox', sandbox: nondeterministic };
  if (result && result.escapes.length > 0) {
    const first = result.escapes[0] as SimulationResult['escapes'][number];
    return { verdict: 'sandbox', sandbox: `${escapeWho(first)} ${first.message} (${first.api}). ${first.fix ?? escapeFix(first.api)}` };
  }
  if (violations.some((v) => invariantKind(v.code) === 'safety')) return { verdict: 'safety' };
  if (violations.length > 0) return { verdict: 'liveness' };
  return { verdict: 'clean' };
}

/** summary.json: the report without the bulky trace. */
export function summaryJson(report: RunReport, files: Record<string, string>): Record<string, unknown> {
  const { result: _result, counterexample, ...rest } = report;
  return { ...rest, counterexampleFaults: counterexample?.faults.length, files };
}
