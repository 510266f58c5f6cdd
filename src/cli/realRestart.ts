import { invariantKind, type Violation } from '../../model/violation.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import { confirmScenario, simulatedOf } from '../confirm/confirmScenario.js';
import type { JournalRef } from '../isolation/journalRef.js';
import type { WorkerPool } from '../pool/workerPool.js';
import type { RunReport } from '../report/runReport.js';
import { realRestartPlans } from '../runner/realRestart.js';

/** What the restarts said, and the parting when real processes broke what the simulation did not (realOnly). */
export type Restarted = { confirmation: NonNullable<RunReport['confirmation']>; sandbox?: { scenario: Scenario; why: string; result?: SimulationResult } };

/** The line a command prints of a run in real processes (a confirmation, or the restarts): its verdict in confirm's words. */
export function realProcessesLine(confirmation: NonNullable<RunReport['confirmation']>): string {
  return `in real processes: ${confirmation.lines.find((l) => l.startsWith('verdict: ') || l.startsWith('cannot confirm: '))?.replace(/^verdict: /, '') ?? confirmation.verdict}`;
}

/**
 * The real restart of a clean check (its default, off with --no-real-restart; src/runner/realRestart.ts): simulated in full,
 * then run in real processes. Real processes breaking what the simulation did not (realOnly below) is a sandbox verdict:
 * what the journal did after a simulated crash is not what it does after a real one. The simulated side is every violation
 * the simulation judged, those of invariants the check leaves out (--invariants, --safety-only) included: what both worlds
 * break is no parting, whichever invariants the verdict counts. Anything else is reported as confirm labelled it.
 */
export async function realRestart(pool: WorkerPool, journalId: number, ref: JournalRef, base: Scenario): Promise<Restarted> {
  // The fault-free run first: the late restart's crash is placed by its steps (src/runner/realRestart.ts).
  const faultFree = await pool.run(journalId, base, { detail: 'full' });
  const plans = realRestartPlans(base, faultFree.kind === 'simulated' ? faultFree.result?.trace : undefined);
  if (plans.length === 0) return { confirmation: { verdict: 'not run', lines: ['not run: the task has no operation to restart in'] } };
  // The restarts at once: real processes mostly wait (on the service, on the disk), each in its own folder against its own service.
  const restarts = await Promise.all(plans.map((plan) => restartOnce(pool, journalId, ref, plan.scenario, plan.what)));
  const parted = restarts.find((r) => r.sandbox !== undefined);
  if (parted) return parted;
  const notClean = restarts.find((r) => r.confirmation.verdict !== 'both clean');
  const confirmation = notClean?.confirmation ?? { verdict: 'both clean', lines: restarts.flatMap((r) => r.confirmation.lines) };
  return { confirmation };
}

/**
 * One restart: simulated in full, then in real processes; a parting (real processes breaking an invariant the
 * simulation did not: realOnly below) is a sandbox verdict, whatever confirm's label: "diverged" too (the real calls changed the disk
 * otherwise at a step both took alike), where a journal whose lost memory sent it down another path broke write-ahead
 * for real and the check said clean (keptMemory.test's late journal, seen on 2026-12-07).
 */
async function restartOnce(pool: WorkerPool, journalId: number, ref: JournalRef, scenario: Scenario, what: string): Promise<Restarted> {
  const simulated = await pool.run(journalId, scenario, { detail: 'full', modules: 'fresh' });
  if (simulated.kind !== 'simulated' || !simulated.result) return { confirmation: { verdict: 'not run', lines: [`not run: the restart's simulation ended ${simulated.kind}`] } };
  const simulatedSide = simulatedOf(simulated.result, simulated.summary.violations);
  const { verdict, lines, calls, real, realOutcome } = await confirmScenario(ref, scenario, simulatedSide);
  const confirmation = { verdict, lines: [`a real restart of the clean task (${what}):`, ...lines], ...(calls ? { calls } : {}) };
  if (verdict !== 'another violation' && !realOnly(real ?? [], simulatedSide.violations, realOutcome?.kind === 'completed')) return { confirmation: cutShort(confirmation, realOutcome) };
  const where = lines.find((line) => line.startsWith('steps: '))?.replace(/^steps: /, '');
  const said = lines.find((line) => line.startsWith('verdict: '))?.replace(/^verdict: /, '');
  const why = `a real restart parted from the simulated one${where ? ` (${where})` : ''}${said ? `: ${said}` : ''}. What the journal did after a simulated crash is not what it does after a real one: it kept something a real crash forgets, where durasim's restore does not reach (README, known limits), or the simulated world served it otherwise than real processes do. Run the replay below to see both worlds step by step`;
  return { confirmation, sandbox: { scenario, why, result: simulated.result } };
}

/**
 * A restart whose real run was cut short (its wall-clock limit, a bound) and parted nothing decided nothing: its verdict
 * line says so first, in place of confirm's label (which would name the unfinished run's convergence as a difference).
 */
export function cutShort(confirmation: Restarted['confirmation'], outcome: { kind: string; detail?: string } | undefined): Restarted['confirmation'] {
  if (outcome === undefined || outcome.kind === 'completed') return confirmation;
  const said = `verdict: cut short — ${outcome.detail ?? outcome.kind}: this restart decided nothing (a real run that does not finish is no finding; a busy machine slows it), and the verdict is the simulation's`;
  return { ...confirmation, verdict: 'cut short', lines: confirmation.lines.map((line) => (line.startsWith('verdict: ') ? said : line)) };
}

/**
 * Whether real processes broke, at a key, an invariant the simulation did not: a safety invariant always; a liveness one
 * (a staged file left behind, a journal error) only where the real run completed — every worker ended on its own. A
 * real run cut short (its wall-clock limit on a busy machine, a bound) has not converged for want of time, which says
 * nothing of the journal.
 */
export function realOnly(real: readonly Violation[], simulated: readonly Violation[], realCompleted: boolean): boolean {
  return real.some((v) => (invariantKind(v.code) === 'safety' || realCompleted) && !simulated.some((s) => s.code === v.code && s.key === v.key));
}
