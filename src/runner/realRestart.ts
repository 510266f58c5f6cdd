/**
 * A real restart, to cross-check a clean verdict (check's default; --no-real-restart leaves it out):
 * the task's fault-free scenario with one crash — the first process killed (a process kill: what it
 * wrote stays in the page cache) — so that the restarted process runs where memory really dies with
 * a process. What a crash should have forgotten and the simulation kept (a place the restore of the
 * shared objects does not reach) shows as the two worlds parting after the restart; confirm
 * (src/confirm/confirmScenario.ts) runs it and names the step.
 *
 * Where the crash strikes: two restarts, each with one crash of the first process. One before its
 * first step that names the task's first key, after its start-up has run (memory left as the
 * modules load or the task starts). One later, read from the fault-free run: before the first
 * step that names the task's last key once the service has answered a request (the work before it
 * done, the last operation's still to do; anchored there: src/runner/anchorFaults.ts), else before
 * the last step that names the task. By then the process has left what it leaves as it works,
 * which the first restart misses (properties/attacks/pending/own/e04), and the restarted process
 * still has work in which a path memory changed can break something (a parting is seen only when
 * real processes break an invariant). The same crash twice, or no such step, is one restart.
 */
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { anchoredInPlace, taskNames } from './anchorFaults.js';
import { stepMentions } from '../../simulator/scenario/scenarioEvents.js';

/** The restart scenarios for `base` (the sweep's base: the task as check draws it, fault-free), the early one first; none for a task with no operation. `faultFree`: the trace of `base` run. */
export function realRestartScenarios(base: Scenario, faultFree?: readonly TraceEntry[]): Scenario[] {
  const key = base.task.operations[0]?.key;
  if (key === undefined) return [];
  const early: Fault = { kind: 'crash', process: 0, incarnation: 0, at: { mentions: key, occurrence: 0 }, when: 'before', mode: 'keep-all' };
  const late = faultFree === undefined ? undefined : lateCrash(base, faultFree);
  const crashes = late === undefined || JSON.stringify(late) === JSON.stringify(early) ? [early] : [early, late];
  return crashes.map((crash) => ({ ...structuredClone(base), faults: [crash] }));
}

/** The later crash (above), anchored; undefined when the fault-free run has no step to place it before. */
function lateCrash(base: Scenario, trace: readonly TraceEntry[]): Fault | undefined {
  const names = taskNames(base);
  const lastKey = base.task.operations.at(-1)?.key as string;
  const answered = trace.find((e) => e.actor === 'service' && e.op === 'receive')?.seq ?? Infinity;
  const own = trace.filter((e) => e.actor === 'worker-0' && (e.incarnation ?? 0) === 0 && e.step !== undefined && !e.op.endsWith(':result'));
  const atLastKey = own.find((e) => e.seq > answered && stepMentions(e.op, e.detail, lastKey));
  const at = atLastKey ?? own.filter((e) => names.some((name) => stepMentions(e.op, e.detail, name))).at(-1);
  if (at === undefined) return undefined;
  const numbered: Scenario = { ...base, faults: [{ kind: 'crash', process: 0, incarnation: 0, step: at.step as number, when: 'before', mode: 'keep-all' }] };
  const fault = anchoredInPlace(numbered, trace).faults[0];
  return fault !== undefined && 'at' in fault && fault.at !== undefined ? fault : undefined;
}
