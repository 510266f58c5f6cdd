/**
 * Is a simulated run real? The same scenario runs in real processes (realRun.ts) and the judge
 * reads both worlds: confirmed (every simulated violation, by invariant and key, happens for real),
 * both clean, not reproduced (the first step where the worlds part is named), or cannot confirm (a
 * fault real processes cannot produce, or a violation about what only the page cache held). A machine
 * crash that, simulated, lost nothing and killed only the worker it struck runs as a process kill.
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
import { runForReal, unconfirmable } from './realRun.js';

export type ConfirmVerdict = 'confirmed' | 'both clean' | 'not reproduced' | 'cannot confirm';

export interface Confirmation {
  verdict: ConfirmVerdict;
  /** confirmed: 1 (safety) or 3 (liveness); both clean: 0; not reproduced: 4; cannot confirm: 2. */
  exitCode: number;
  /** What to print, a line each. */
  lines: string[];
}

/** The simulated side: what the simulation judged, and what it did. */
export interface Simulated {
  violations: readonly Violation[];
  trace: readonly TraceEntry[];
  crashes: readonly CrashRecord[];
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

export async function confirmScenario(ref: JournalRef, scenario: Scenario, simulatedRun: Simulated, options: { wallLimitMs?: number } = {}): Promise<Confirmation> {
  const lines: string[] = [];
  const simulated = simulatedRun.violations;
  const simulatedSteps = steps(simulatedRun.trace, false);
  const realScenario = asProcessKills(scenario, simulatedRun.crashes);
  const usesStore = simulatedRun.trace.some((e) => e.actor === 'store');
  const why = unconfirmable(realScenario) ?? (usesStore ? 'the journal uses the shared store (env.store), which has no real counterpart in a confirmation yet' : undefined);
  if (why !== undefined) return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines: [`cannot confirm: ${why}.`] };
  if (realScenario !== scenario) lines.push('a machine crash that lost nothing and killed one worker runs as a process kill: on that disk, at that moment, it is one');
  const real = await runForReal(ref, realScenario, options.wallLimitMs === undefined ? {} : { wallLimitMs: options.wallLimitMs });
  const found = judge(real.input);
  const realSteps = steps(real.input.trace, true);
  lines.push(`simulated: ${simulated.length === 0 ? 'no violation' : simulated.map(identity).join(', ')}`);
  lines.push(`real (${real.wallMs.toFixed(0)} ms, ${realSteps.length} worker steps): ${found.length === 0 ? 'no violation' : found.map(identity).join(', ')}`);
  const parting = simulatedSteps.findIndex((line, i) => realSteps[i] !== line);
  if (parting === -1 && realSteps.length === simulatedSteps.length) lines.push(`steps: the real processes took the simulation's ${simulatedSteps.length} worker steps, in its order`);
  else {
    const i = parting === -1 ? Math.min(simulatedSteps.length, realSteps.length) : parting;
    lines.push(`steps: the worlds part at worker step ${i}: simulated ${simulatedSteps[i] ?? '(nothing)'} | real ${realSteps[i] ?? '(nothing)'}`);
  }
  const seen = new Set(found.map(identity));
  const confirmed = simulated.filter((v) => seen.has(identity(v)));
  const missing = simulated.filter((v) => !seen.has(identity(v)));
  const durability = missing.filter(aboutDurability);
  const notReal = missing.filter((v) => !aboutDurability(v));
  const extra = found.filter((v) => !simulated.some((s) => identity(s) === identity(v)));
  const durabilityNote = durability.length > 0 ? `${durability.map(identity).join(', ')}: about what only the page cache held; a process kill keeps the page cache, and only a machine crash would lose it` : '';
  if (simulated.length === 0 && found.length === 0) {
    lines.push('verdict: both clean');
    return { verdict: 'both clean', exitCode: EXIT.clean, lines };
  }
  if (notReal.length === 0 && confirmed.length > 0) {
    lines.push(`verdict: confirmed — the same violations in real processes${durability.length > 0 ? `, except what cannot be (${durabilityNote})` : ''}`);
    for (const line of violationLines(found.filter((v) => confirmed.some((s) => identity(s) === identity(v))))) lines.push(`  ${line}`);
    if (extra.length > 0) lines.push(`  real processes also broke ${extra.map(identity).join(', ')}`);
    return { verdict: 'confirmed', exitCode: confirmed.some((v) => invariantKind(v.code) === 'safety') ? EXIT.safety : EXIT.liveness, lines };
  }
  if (notReal.length === 0 && durability.length > 0 && extra.length === 0) {
    lines.push(`cannot confirm: ${durabilityNote}.`);
    return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines };
  }
  lines.push(`verdict: not reproduced — ${notReal.length > 0 ? `${notReal.map(identity).join(', ')} did not happen for real` : `real processes broke ${extra.map(identity).join(', ')}, the simulation did not`}`);
  // Both worlds side by side from where they part (or from the end of the shorter).
  const from = parting === -1 ? Math.min(simulatedSteps.length, realSteps.length) : parting;
  const width = Math.max(10, ...simulatedSteps.slice(from, from + 8).map((l) => l.length));
  lines.push(`  ${'simulated'.padEnd(width)} | real`);
  for (let i = from; i < from + 8 && (i < simulatedSteps.length || i < realSteps.length); i++) lines.push(`  ${(simulatedSteps[i] ?? '').padEnd(width)} | ${realSteps[i] ?? ''}`);
  return { verdict: 'not reproduced', exitCode: EXIT.sandbox, lines };
}
