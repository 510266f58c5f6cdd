/**
 * Is a simulated run real? The same scenario runs in real processes (realRun.ts) and the judge
 * reads both worlds: confirmed (every simulated violation, by invariant and key, happens for real),
 * both clean, not reproduced (the first step where the worlds part is named), cannot confirm (a
 * fault real processes cannot produce; untraced, a violation about what only the page cache held),
 * or diverged: with the workers traced, the real system calls of a worker step changed the disk
 * otherwise than the simulation's model of Node did (or the disk model refused what Linux did) —
 * a fidelity defect of durasim, reported as such. A machine crash that, simulated, lost nothing
 * and killed only the worker it struck runs as a process kill.
 */
import { judge } from '../../model/judge.js';
import { invariantKind, type Violation } from '../../model/violation.js';
import { describeLoss } from '../../simulator/disk/crashReport.js';
import type { CrashRecord } from '../../simulator/world/runRecords.js';
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { violationLines } from '../report/violationLines.js';
import { EXIT } from '../cli/exitCodes.js';
import type { JournalRef } from '../isolation/journalRef.js';
import type { DiskCallLine } from '../../simulator/disk/diskCallLog.js';
import { callTable, firstCallDivergence, type CallDivergence } from './callComparison.js';
import { runForReal } from './realRun.js';
import { unconfirmable } from './unconfirmable.js';
import { straceUnavailable } from './straceCommand.js';

export type ConfirmVerdict = 'confirmed' | 'both clean' | 'not reproduced' | 'cannot confirm' | 'diverged';

export interface Confirmation {
  verdict: ConfirmVerdict;
  /** confirmed: 1 (safety) or 3 (liveness); both clean: 0; not reproduced: 4; cannot confirm: 2; diverged: 6. */
  exitCode: number;
  /** What to print, a line each. */
  lines: string[];
  /** Traced: every worker step that changed the disk, simulated beside real, with the system calls (callComparison.ts). */
  calls?: string[];
  divergence?: CallDivergence;
}

/** The simulated side: what the simulation judged, and what it did. */
export interface Simulated {
  violations: readonly Violation[];
  trace: readonly TraceEntry[];
  crashes: readonly CrashRecord[];
  /** What the journal's calls changed on the disk, per worker step (SimulateOptions.diskCalls). */
  diskCalls?: readonly DiskCallLine[];
}

const identity = (v: Violation): string => `${v.code} [${v.key}]`;

/** A violation whose evidence is what only the page cache held, or the durable image alone: a process kill cannot show it. */
function aboutDurability(v: Violation): boolean {
  return (v.code === 'write-ahead' || v.code === 'truthful-outcome') && /page cache|durable image|durable record/.test(v.actual);
}

/** Worker steps as "worker-0#1 step 3 fs.open", from the simulated trace or the real one. */
function steps(lines: readonly { actor: string; op: string; incarnation?: number; step?: number }[], real: boolean): string[] {
  return real
    ? lines.filter((l) => /^worker-\d+#\d+$/.test(l.actor) && /^step \d+ [^:]+$/.test(l.op)).map((l) => `${l.actor} ${l.op}`)
    : lines.filter((l) => l.actor.startsWith('worker-') && l.step !== undefined && !l.op.endsWith(':result') && l.op !== 'timer').map((l) => `${l.actor}#${l.incarnation ?? 0} step ${l.step} ${l.op}`);
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
  const simulatedSteps = steps(simulatedRun.trace, false);
  const realScenario = asProcessKills(scenario, simulatedRun.crashes);
  const untraced = options.traced === false ? 'tracing is off' : straceUnavailable();
  const why = unconfirmable(realScenario, untraced);
  if (why !== undefined) return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines: [`cannot confirm: ${why}.`] };
  if (realScenario !== scenario) lines.push('a machine crash that lost nothing and killed one worker runs as a process kill: on that disk, at that moment, it is one');
  const real = await runForReal(ref, realScenario, { traced: untraced === undefined, ...(options.wallLimitMs === undefined ? {} : { wallLimitMs: options.wallLimitMs }) });
  const found = judge(real.input);
  const realSteps = steps(real.input.trace, true);
  lines.push(`simulated: ${simulated.length === 0 ? 'no violation' : simulated.map(identity).join(', ')}`);
  lines.push(`real (${real.wallMs.toFixed(0)} ms, ${realSteps.length} worker steps${real.traced ? `, ${real.callLog.length} system calls on the work folder traced` : ', untraced'}): ${found.length === 0 ? 'no violation' : found.map(identity).join(', ')}`);
  const parting = simulatedSteps.findIndex((line, i) => realSteps[i] !== line);
  if (parting === -1 && realSteps.length === simulatedSteps.length) lines.push(`steps: the real processes took the simulation's ${simulatedSteps.length} worker steps, in its order`);
  else {
    const i = parting === -1 ? Math.min(simulatedSteps.length, realSteps.length) : parting;
    lines.push(`steps: the worlds part at worker step ${i}: simulated ${simulatedSteps[i] ?? '(nothing)'} | real ${realSteps[i] ?? '(nothing)'}`);
  }
  for (const line of real.input.trace) if (line.op === 'crash') lines.push(`real ${line.actor === 'disk' ? 'disk after the crash' : 'crash'}: ${line.detail}`);
  const alike = simulatedSteps.slice(0, parting === -1 ? Math.min(simulatedSteps.length, realSteps.length) : parting);
  const calls = real.traced && simulatedRun.diskCalls ? callTable(simulatedRun.diskCalls, real.realCalls, real.callLog, realSteps) : undefined;
  const extras = { ...(calls ? { calls } : {}) };
  if (real.unfollowed.length > 0) {
    lines.push(`cannot confirm: the journal's real system calls do what the disk model does not follow, so the crash states built from them would be guesses: ${real.unfollowed.slice(0, 3).join('; ')}.`);
    return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines, ...extras };
  }
  const divergence: CallDivergence | undefined = real.refused.length > 0
    ? { mark: real.refused[0]?.split(': ')[0] ?? '', simulated: [], real: real.refused.slice(0, 3) }
    : real.traced && simulatedRun.diskCalls ? firstCallDivergence(simulatedRun.diskCalls, real.realCalls, alike) : undefined;
  const seen = new Set(found.map(identity));
  const confirmed = simulated.filter((v) => seen.has(identity(v)));
  const missing = simulated.filter((v) => !seen.has(identity(v)));
  // Traced, the durable image is built from the real calls: a durability violation is as checkable as any other.
  const excused = (v: Violation): boolean => !real.traced && aboutDurability(v);
  const durability = missing.filter(excused);
  const notReal = missing.filter((v) => !excused(v));
  const divergenceLines = divergence
    ? [
        `  at ${divergence.mark}:`,
        `    simulated: ${divergence.simulated.join('; ') || '(no change)'}`,
        `    real:      ${divergence.real.join('; ') || '(no change)'}`,
        '  durasim simulates this step of Node otherwise than Node does it: a defect of durasim, not a finding about the journal. Report it to the maintainers of durasim with this scenario file and this output.',
      ]
    : [];
  const extra = found.filter((v) => !simulated.some((s) => identity(s) === identity(v)));
  const durabilityNote = durability.length > 0 ? `${durability.map(identity).join(', ')}: about what only the page cache held; a process kill keeps the page cache, and only a machine crash would lose it` : '';
  if (notReal.length === 0 && confirmed.length > 0) {
    lines.push(`verdict: confirmed — the same violations in real processes${durability.length > 0 ? `, except what cannot be (${durabilityNote})` : ''}`);
    for (const line of violationLines(found.filter((v) => confirmed.some((s) => identity(s) === identity(v))))) lines.push(`  ${line}`);
    if (extra.length > 0) lines.push(`  real processes also broke ${extra.map(identity).join(', ')}`);
    // The finding stands (the real run's crash states come from the real calls); the simulation's fidelity defect is said too.
    if (divergence) lines.push('  and the simulation diverged from the real calls:', ...divergenceLines);
    return { verdict: 'confirmed', exitCode: confirmed.some((v) => invariantKind(v.code) === 'safety') ? EXIT.safety : EXIT.liveness, lines, ...extras, ...(divergence ? { divergence } : {}) };
  }
  if (divergence) {
    lines.push(`verdict: diverged — the real system calls changed the disk otherwise than the simulation (simulated: ${simulated.length === 0 ? 'no violation' : simulated.map(identity).join(', ')}; real: ${found.length === 0 ? 'no violation' : found.map(identity).join(', ')})`);
    lines.push(...divergenceLines);
    return { verdict: 'diverged', exitCode: EXIT.diverged, lines, ...extras, divergence };
  }
  if (simulated.length === 0 && found.length === 0) {
    lines.push('verdict: both clean');
    return { verdict: 'both clean', exitCode: EXIT.clean, lines, ...extras };
  }
  if (notReal.length === 0 && durability.length > 0 && extra.length === 0) {
    lines.push(`cannot confirm: ${durabilityNote}.`);
    return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines, ...extras };
  }
  lines.push(`verdict: not reproduced — ${notReal.length > 0 ? `${notReal.map(identity).join(', ')} did not happen for real` : `real processes broke ${extra.map(identity).join(', ')}, the simulation did not`}`);
  // Where the real processes took their steps in another order (workers, or two calls of one process, racing in real time) and broke invariants anyway, say so: the defect is real, seen another way.
  if (parting !== -1 && found.length > 0 && notReal.length > 0) lines.push(`  the real processes took their steps in another order from worker step ${parting} (they race in real time) and broke ${found.map(identity).join(', ')}: a real defect, reached another way`);
  // Both worlds side by side from where they part (or from the end of the shorter).
  const from = parting === -1 ? Math.min(simulatedSteps.length, realSteps.length) : parting;
  const width = Math.max(10, ...simulatedSteps.slice(from, from + 8).map((l) => l.length));
  lines.push(`  ${'simulated'.padEnd(width)} | real`);
  for (let i = from; i < from + 8 && (i < simulatedSteps.length || i < realSteps.length); i++) lines.push(`  ${(simulatedSteps[i] ?? '').padEnd(width)} | ${realSteps[i] ?? ''}`);
  return { verdict: 'not reproduced', exitCode: EXIT.sandbox, lines, ...extras };
}
