/**
 * Is a simulated run real? The same scenario runs in real processes (realRun.ts) and the judge
 * reads both worlds. The labels, in the order they are decided:
 * - cannot confirm (exit 2): a fault real processes cannot produce; a native addon the journal
 *   imports (better-sqlite3) that does not load on this Node (nativeAddonFailure.ts); a real call
 *   the replay cannot follow; untraced, a violation about what only the page cache held.
 * - confirmed (exit 1, or 3 for liveness alone): every simulated violation, by invariant and key,
 *   happens for real; or a real safety violation is the simulated finding's invariant or its
 *   consequence (sameDefect.ts: the rule) — the same defect, shown by the real run's own timing.
 * - diverged (exit 6): traced, a worker step both worlds took alike — the same incarnation's n-th
 *   step, of the same call of run(), the same operation — changed the disk otherwise than the
 *   simulation's model of Node did (names the journal brought in compared by their role:
 *   callComparison.ts), or the disk model refused what Linux did: a defect of durasim.
 * - both clean (exit 0).
 * - another violation (exit 1): the real run broke safety invariants that are neither the
 *   simulated finding's nor its consequences: named, a finding of their own.
 * - not reproduced (another order) (exit 4): the real processes took the same steps in another
 *   order (two calls of one process, or two workers, as real time let them: workerSteps.ts), and
 *   what the simulation found did not happen; the real run is judged all the same, its violations
 *   printed.
 * - not reproduced (exit 4): the first step where the worlds part is named.
 * A machine crash that, simulated, lost nothing and killed only the worker it struck runs as a
 * process kill.
 */
import { judge } from '../../model/judge.js';
import type { Violation } from '../../model/violation.js';
import { describeLoss } from '../../simulator/disk/crashReport.js';
import type { CrashRecord } from '../../simulator/world/runRecords.js';
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { EXIT } from '../cli/exitCodes.js';
import type { JournalRef } from '../isolation/journalRef.js';
import type { DiskCallLine } from '../../simulator/disk/diskCallLog.js';
import { callTable, firstCallDivergence, type CallDivergence } from './callComparison.js';
import { runForReal, type RealRun } from './realRun.js';
import { NativeAddonUnloadable } from './nativeAddonFailure.js';
import { unconfirmable } from './unconfirmable.js';
import { straceUnavailable } from './straceCommand.js';
import { outrunWaits } from './outrunWaits.js';
import { decideVerdict, identity, type ConfirmVerdict } from './confirmVerdict.js';
import { compareSteps, markOf, stepName, workerSteps } from './workerSteps.js';
import { hasSqliteSteps, outsideSqlite, remarked, scenarioOutsideSqlite } from './sqliteSteps.js';

export interface Confirmation {
  verdict: ConfirmVerdict;
  /** confirmed: 1 (safety) or 3 (liveness); both clean: 0; another violation: 1; not reproduced (another order too): 4; cannot confirm: 2; diverged: 6. */
  exitCode: number;
  /** What to print, a line each. */
  lines: string[];
  /** Traced: every worker step that changed the disk, simulated beside real, with the system calls (callComparison.ts). */
  calls?: string[];
  divergence?: CallDivergence;
  /** The real run's violations, judged as the simulation's are (absent where no real run was judged). */
  real?: readonly Violation[];
  /** Why the real run stopped: completed, or a bound (its wall-clock limit on a busy machine among them), with what it says. */
  realOutcome?: { kind: string; detail?: string };
}

/** The simulated side: what the simulation judged, and what it did. */
export interface Simulated {
  violations: readonly Violation[];
  trace: readonly TraceEntry[];
  crashes: readonly CrashRecord[];
  /** What the journal's calls changed on the disk, per worker step (SimulateOptions.diskCalls). */
  diskCalls?: readonly DiskCallLine[];
  /** Which worker steps a call of run() other than the first took (SimulationResult.stepCalls). */
  stepCalls?: Readonly<Record<number, number>>;
}

export type { ConfirmVerdict } from './confirmVerdict.js';

/** The simulated side of a SimulationResult (with SimulateOptions.diskCalls) and its violations. */
export function simulatedOf(result: { trace: readonly TraceEntry[]; crashes: readonly CrashRecord[]; diskCalls?: readonly DiskCallLine[]; stepCalls?: Readonly<Record<number, number>> }, violations: readonly Violation[]): Simulated {
  return { violations, trace: result.trace, crashes: result.crashes, ...(result.diskCalls ? { diskCalls: result.diskCalls } : {}), ...(result.stepCalls ? { stepCalls: result.stepCalls } : {}) };
}

/**
 * The scenario with each machine crash that, in the simulation, lost nothing and killed only the
 * worker it struck, turned into a process kill: then the two are the same event.
 */
function asProcessKills(scenario: Scenario, crashes: readonly CrashRecord[]): Scenario {
  let changed = false;
  const faults = scenario.faults.map((fault): Fault => {
    if (fault.kind !== 'crash' || fault.mode === 'keep-all') return fault;
    const fired = crashes.find((c) => c.fault === fault || JSON.stringify(c.fault) === JSON.stringify(fault));
    if (!fired || fired.killed.length !== 1 || describeLoss(fired.disk).length > 0) return fault;
    changed = true;
    const { tornKeepBytes: _bytes, tail: _tail, keep: _keep, ...kill } = fault;
    return { ...kill, mode: 'keep-all' } as Fault;
  });
  return changed ? { ...scenario, faults } : scenario;
}

export async function confirmScenario(ref: JournalRef, scenario: Scenario, simulatedRun: Simulated, options: { wallLimitMs?: number; traced?: boolean } = {}): Promise<Confirmation> {
  const lines: string[] = [];
  const simulated = simulatedRun.violations;
  const allSteps = workerSteps(simulatedRun.trace, simulatedRun.stepCalls);
  // A SQLite journal: compared at the grain both worlds share, its steps outside SQLite (sqliteSteps.ts).
  const sqlite = hasSqliteSteps(allSteps) ? outsideSqlite(allSteps) : undefined;
  const simulatedSteps = sqlite ? sqlite.steps : allSteps;
  const simulatedCalls = sqlite && simulatedRun.diskCalls ? remarked(simulatedRun.diskCalls, sqlite.marks) : simulatedRun.diskCalls;
  const killed = asProcessKills(scenario, simulatedRun.crashes);
  const placed = sqlite ? scenarioOutsideSqlite(killed, simulatedRun.trace) : { scenario: killed };
  if ('why' in placed) return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines: [`cannot confirm: ${placed.why}.`] };
  const realScenario = placed.scenario;
  const untraced = options.traced === false ? 'tracing is off' : straceUnavailable();
  const why = unconfirmable(realScenario, untraced);
  if (why !== undefined) return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines: [`cannot confirm: ${why}.`] };
  if (killed !== scenario) lines.push('a machine crash that lost nothing and killed one worker runs as a process kill: on that disk, at that moment, it is one');
  let real: RealRun;
  try {
    real = await runForReal(ref, realScenario, { traced: untraced === undefined, sqlite: sqlite !== undefined, ...(options.wallLimitMs === undefined ? {} : { wallLimitMs: options.wallLimitMs }) });
  } catch (error) {
    // The native addon (better-sqlite3) does not load on this Node: no real run happened, so nothing is learnt of the finding.
    if (error instanceof NativeAddonUnloadable) return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines: [...lines, `cannot confirm: ${error.message}`] };
    throw error;
  }
  const found = judge(real.input);
  const realSteps = real.steps;
  lines.push(`simulated: ${simulated.length === 0 ? 'no violation' : simulated.map(identity).join(', ')}`);
  lines.push(`real (${real.wallMs.toFixed(0)} ms, ${realSteps.length} worker steps${real.traced ? `, ${real.callLog.length} system calls on the work folder traced` : ', untraced'}): ${found.length === 0 ? 'no violation' : found.map(identity).join(', ')}`);
  const order = compareSteps(simulatedSteps, realSteps);
  if (sqlite) lines.push(`steps: compared outside SQLite — the simulation's ${allSteps.length - simulatedSteps.length} SQLite VFS steps are system calls native SQLite makes inside the journal's calls, their disk changes compared under the step before them (docs/sqlite.md)`);
  if (order.kind === 'same') lines.push(`steps: the real processes took the simulation's ${simulatedSteps.length} worker steps, in its order`);
  else {
    const [a, b] = [simulatedSteps[order.at], realSteps[order.at]];
    const how = order.anotherOrder ? 'the real processes took the same steps in another order from' : 'the worlds part at';
    lines.push(`steps: ${how} worker step ${order.at}: simulated ${a ? stepName(a) : '(nothing)'} | real ${b ? stepName(b) : '(nothing)'}`);
  }
  for (const line of real.input.trace) if (line.op === 'crash') lines.push(`real ${line.actor === 'disk' ? 'disk after the crash' : 'crash'}: ${line.detail}`);
  // The steps both worlds took alike: only there is a difference in what a step did to the disk durasim's own.
  const alike = simulatedSteps.slice(0, order.kind === 'same' ? simulatedSteps.length : order.at).map(markOf);
  const calls = real.traced && simulatedCalls ? callTable(simulatedCalls, real.realCalls, real.callLog, realSteps.map(markOf)) : undefined;
  const extras = { ...(calls ? { calls } : {}) };
  if (real.unfollowed.length > 0) {
    lines.push(`cannot confirm: the journal's real system calls do what the disk model does not follow, so the crash states built from them would be guesses: ${real.unfollowed.slice(0, 3).join('; ')}.`);
    return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines, ...extras };
  }
  const divergence: CallDivergence | undefined = real.refused.length > 0
    ? { mark: real.refused[0]?.split(': ')[0] ?? '', simulated: [], real: real.refused.slice(0, 3) }
    : real.traced && simulatedCalls ? firstCallDivergence(simulatedCalls, real.realCalls, alike) : undefined;
  const outrun = outrunWaits(simulated, found, real.input);
  const decided = decideVerdict({ simulated, found, traced: real.traced, simulatedSteps, realSteps, order, ...(divergence ? { divergence } : {}), ...(outrun.length > 0 ? { outrun } : {}) });
  lines.push(...decided.lines);
  return { verdict: decided.verdict, exitCode: decided.exitCode, lines, ...extras, ...(divergence && (decided.verdict === 'diverged' || decided.verdict === 'confirmed') ? { divergence } : {}), real: found, realOutcome: real.input.outcome };
}
