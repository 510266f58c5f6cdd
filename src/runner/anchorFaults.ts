/**
 * Re-anchoring before simplifying (issue 30 part 4): a crash, I/O error or pause placed by step
 * number pins every operation before it — drop one and the fault lands elsewhere — so the shrunk
 * counterexample keeps operations it does not need. Here each numbered fault is placed instead by
 * the call it hit in the failing run's trace: the step's rank among its incarnation's steps that
 * mention one of the task's keys or edited paths (ScenarioEvents' own rule), so the same run
 * replays, and removing other operations keeps the fault in its window. A step that mentions none
 * of them stays numbered.
 */
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import { stepMentions } from '../../simulator/scenario/scenarioEvents.js';
import type { TraceEntry } from '../../simulator/world/trace.js';

/** The names a fault can be anchored to: the operations' keys, and the edited files' paths. */
function anchorNames(scenario: Scenario): string[] {
  return [...new Set(scenario.task.operations.flatMap((op) => (op.kind === 'edit' ? [op.key, op.path] : [op.key])))];
}

/** `scenario` with each numbered crash, I/O error and pause anchored to the call it hit in `trace` (the trace of `scenario`'s run). */
export function anchorFaults(scenario: Scenario, trace: readonly TraceEntry[]): Scenario {
  const names = anchorNames(scenario);
  const steps = (pid: number, incarnation: number): TraceEntry[] =>
    trace.filter((e) => e.actor === `worker-${pid}` && (e.incarnation ?? 0) === incarnation && e.step !== undefined && !e.op.endsWith(':result'));
  let changed = false;
  const faults = scenario.faults.map((fault): Fault => {
    if ((fault.kind !== 'crash' && fault.kind !== 'io-error' && fault.kind !== 'pause') || fault.step === undefined) return fault;
    const own = steps(fault.process, fault.incarnation);
    const hit = own.find((e) => e.step === fault.step);
    if (hit === undefined) return fault;
    const name = names.find((n) => stepMentions(hit.op, hit.detail, n));
    if (name === undefined) return fault;
    const occurrence = own.filter((e) => e.seq < hit.seq && stepMentions(e.op, e.detail, name)).length;
    const { step: _, ...rest } = fault;
    changed = true;
    return { ...rest, at: { mentions: name, occurrence } } as Fault;
  });
  return changed ? { ...scenario, faults } : scenario;
}
