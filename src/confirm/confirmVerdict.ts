/**
 * confirm's label, from what the two worlds did (confirmScenario.ts runs them and says the rules in
 * order at its top): the simulated violations, the real run's own, how their worker steps compare,
 * and the first step whose disk changes differ. A pure function of those, so each label is
 * decided the same way wherever the runs come from.
 */
import { invariantKind, type Violation } from '../../model/violation.js';
import { violationLines } from '../report/violationLines.js';
import { EXIT } from '../cli/exitCodes.js';
import type { CallDivergence } from './callComparison.js';
import { defectShown } from './sameDefect.js';
import { stepName, type StepComparison, type WorkerStep } from './workerSteps.js';

export type ConfirmVerdict = 'confirmed' | 'both clean' | 'not reproduced' | 'not reproduced (another order)' | 'another violation' | 'cannot confirm' | 'diverged';

export interface VerdictInput {
  simulated: readonly Violation[];
  /** The real run's violations, judged by the same judge. */
  found: readonly Violation[];
  /** Whether the real workers ran under strace (then the durable image is built from their real calls). */
  traced: boolean;
  simulatedSteps: readonly WorkerStep[];
  realSteps: readonly WorkerStep[];
  order: StepComparison;
  /** The first step both worlds took alike whose disk changes differ (or a real call the disk model refused). */
  divergence?: CallDivergence;
  /** A simulated finding real time outran (outrunWaits.ts): said under a "not reproduced". */
  outrun?: readonly string[];
}

export interface Verdict {
  verdict: ConfirmVerdict;
  exitCode: number;
  lines: string[];
}

export const identity = (v: Violation): string => `${v.code} [${v.key}]`;
const named = (list: readonly Violation[]): string => (list.length === 0 ? 'no violation' : [...new Set(list.map(identity))].join(', '));

/** A violation whose evidence is what only the page cache held, or the durable image alone: a process kill cannot show it. */
function aboutDurability(v: Violation): boolean {
  return (v.code === 'write-ahead' || v.code === 'truthful-outcome') && /page cache|durable image|durable record/.test(v.actual);
}

export function decideVerdict(input: VerdictInput): Verdict {
  const { simulated, found, traced, divergence, order } = input;
  const lines: string[] = [];
  const seen = new Set(found.map(identity));
  const confirmed = simulated.filter((v) => seen.has(identity(v)));
  const missing = simulated.filter((v) => !seen.has(identity(v)));
  // Traced, the durable image is built from the real calls: a durability violation is as checkable as any other.
  const excused = (v: Violation): boolean => !traced && aboutDurability(v);
  const durability = missing.filter(excused);
  const notReal = missing.filter((v) => !excused(v));
  const extra = found.filter((v) => !simulated.some((s) => identity(s) === identity(v)));
  const realSafety = found.filter((v) => invariantKind(v.code) === 'safety');
  const simulatedCodes = [...new Set(simulated.map((v) => v.code))];
  const shown = realSafety.filter((v) => defectShown(v.code, simulatedCodes) !== undefined);
  const others = realSafety.filter((v) => defectShown(v.code, simulatedCodes) === undefined);
  const divergenceLines = divergence
    ? [
        `  at ${divergence.mark}:`,
        `    simulated: ${divergence.simulated.join('; ') || '(no change)'}`,
        `    real:      ${divergence.real.join('; ') || '(no change)'}`,
        '  durasim simulates this step of Node otherwise than Node does it: a defect of durasim, not a finding about the journal. Report it to the maintainers of durasim with this scenario file and this output.',
      ]
    : [];
  const andDiverged = divergence ? ['  and the simulation diverged from the real calls:', ...divergenceLines] : [];
  const anotherOrder = order.kind === 'parted' && order.anotherOrder ? order.at : undefined;
  const inAnotherOrder = anotherOrder === undefined ? '' : `, taking their steps in another order from worker step ${anotherOrder}`;
  const durabilityNote = durability.length > 0 ? `${durability.map(identity).join(', ')}: about what only the page cache held; a process kill keeps the page cache, and only a machine crash would lose it` : '';

  if (notReal.length === 0 && confirmed.length > 0) {
    lines.push(`verdict: confirmed — the same violations in real processes${durability.length > 0 ? `, except what cannot be (${durabilityNote})` : ''}`);
    for (const line of violationLines(found.filter((v) => confirmed.some((s) => identity(s) === identity(v))))) lines.push(`  ${line}`);
    if (extra.length > 0) lines.push(`  real processes also broke ${named(extra)}`);
    // The finding stands (the real run's crash states come from the real calls); the simulation's fidelity defect is said too.
    lines.push(...andDiverged);
    return { verdict: 'confirmed', exitCode: confirmed.some((v) => invariantKind(v.code) === 'safety') ? EXIT.safety : EXIT.liveness, lines };
  }
  if (shown.length > 0) {
    // The simulated finding's own invariants, and consequences of them (sameDefect.ts), broken for real.
    const own = shown.filter((v) => simulatedCodes.includes(v.code));
    const following = shown.filter((v) => !simulatedCodes.includes(v.code));
    const broke = [...(own.length > 0 ? [`${named(own)}, as simulated`] : []), ...[...new Set(following.map((v) => `${identity(v)}, a consequence of ${defectShown(v.code, simulatedCodes) ?? ''}`))]];
    lines.push(`verdict: confirmed — the same defect in real processes${inAnotherOrder}: ${named(notReal)} did not happen for real, but the real run broke ${broke.join('; ')} (which invariants show one defect: docs/invariants.md)`);
    for (const line of violationLines(found)) lines.push(`  ${line}`);
    lines.push(...andDiverged);
    return { verdict: 'confirmed', exitCode: EXIT.safety, lines };
  }
  if (divergence) {
    lines.push(`verdict: diverged — the real system calls changed the disk otherwise than the simulation (simulated: ${named(simulated)}; real: ${named(found)})`);
    lines.push(...divergenceLines);
    return { verdict: 'diverged', exitCode: EXIT.diverged, lines };
  }
  if (others.length > 0) {
    lines.push(`verdict: another violation — real processes${inAnotherOrder && `${inAnotherOrder},`} broke ${named(others)}, which is neither what the simulation found (${named(simulated)}) nor a consequence of it: a finding of its own`);
    for (const line of violationLines(found)) lines.push(`  ${line}`);
    lines.push(...sideBySide(input));
    return { verdict: 'another violation', exitCode: EXIT.safety, lines };
  }
  const what = notReal.length > 0 ? `${named(notReal)} did not happen for real` : extra.length > 0 ? `real processes broke ${named(extra)}, the simulation did not` : 'neither world broke an invariant';
  if (anotherOrder !== undefined) {
    // The simulated run was not run again: its steps came otherwise. The real run is judged all the same.
    lines.push(`verdict: not reproduced (another order) — the real processes took the same steps in another order from worker step ${anotherOrder} (two calls or two workers, as real time let them), and ${what}`);
    lines.push(...(input.outrun ?? []));
    lines.push(`  the real run, judged: ${named(found)}`);
    for (const line of violationLines(found)) lines.push(`    ${line}`);
    lines.push(...sideBySide(input));
    return { verdict: 'not reproduced (another order)', exitCode: EXIT.sandbox, lines };
  }
  if (simulated.length === 0 && found.length === 0) {
    lines.push('verdict: both clean');
    return { verdict: 'both clean', exitCode: EXIT.clean, lines };
  }
  if (notReal.length === 0 && durability.length > 0 && extra.length === 0) {
    lines.push(`cannot confirm: ${durabilityNote}.`);
    return { verdict: 'cannot confirm', exitCode: EXIT.usage, lines };
  }
  lines.push(`verdict: not reproduced — ${what}`);
  lines.push(...(input.outrun ?? []));
  lines.push(...sideBySide(input));
  return { verdict: 'not reproduced', exitCode: EXIT.sandbox, lines };
}

/** Both worlds' worker steps side by side from where they part (or from the end of the shorter), eight rows. */
function sideBySide({ simulatedSteps, realSteps, order }: VerdictInput): string[] {
  const from = order.kind === 'parted' ? order.at : Math.min(simulatedSteps.length, realSteps.length);
  const sim = simulatedSteps.slice(from, from + 8).map(stepName);
  const real = realSteps.slice(from, from + 8).map(stepName);
  const width = Math.max(10, ...sim.map((l) => l.length));
  const lines = [`  ${'simulated'.padEnd(width)} | real`];
  for (let i = 0; i < Math.max(sim.length, real.length); i++) lines.push(`  ${(sim[i] ?? '').padEnd(width)} | ${real[i] ?? ''}`);
  return lines;
}
