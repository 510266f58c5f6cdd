/**
 * A real restart, to cross-check a clean verdict (check's default; --no-real-restart leaves it out):
 * the task's fault-free scenario with one crash — the first process killed (a process kill: what it
 * wrote stays in the page cache) — so that the restarted process runs where memory really dies with
 * a process. What a crash should have forgotten and the simulation kept (a place the restore of the
 * shared objects does not reach) shows as the two worlds parting after the restart; confirm
 * (src/confirm/confirmScenario.ts) runs it and names the step.
 *
 * Where the crash strikes: three restarts, each with one crash of the first process. One before its
 * first step that names the task's first key, after its start-up has run (memory left as the
 * modules load or the task starts). One later, read from the fault-free run: before the first
 * step that names the task's last key once the service has answered a request (the work before it
 * done, the last operation's still to do; anchored there: src/runner/anchorFaults.ts), else before
 * the last step that names the task. By then the process has left what it leaves as it works,
 * which the first restart misses (properties/attacks/pending/own/e04), and the restarted process
 * still has work in which a path memory changed can break something (a parting is seen only when
 * real processes break an invariant). One in flight: after the fault-free run's last request that
 * names a published key (else its last request), the service's answer never heard, so the restarted
 * process recovers a request that may have left, the window every journal has its own path for; at
 * the other two every earlier key has its receipt, so memory read only there went unseen
 * (properties/attacks/pending/own/e05). The same crash twice, or no such step, is one restart less.
 */
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { anchoredInPlace, taskNames } from './anchorFaults.js';
import { stepMentions } from '../../simulator/scenario/scenarioEvents.js';

/** A restart: its scenario, and where its crash strikes, as its report says. */
export interface RestartPlan {
  scenario: Scenario;
  what: string;
}

/** The restarts for `base` (the sweep's base: the task as check draws it, fault-free): early, late, in flight; none for a task with no operation. `faultFree`: the trace of `base` run (without it, the early one alone). */
export function realRestartPlans(base: Scenario, faultFree?: readonly TraceEntry[]): RestartPlan[] {
  const key = base.task.operations[0]?.key;
  if (key === undefined) return [];
  const early: Fault = { kind: 'crash', process: 0, incarnation: 0, at: { mentions: key, occurrence: 0 }, when: 'before', mode: 'keep-all' };
  const later = faultFree === undefined ? [] : [
    { crash: lateCrash(base, faultFree), what: "late: one crash before its first step naming the last key once the service has answered, or its last step naming the task" },
    { crash: inFlightCrash(base, faultFree), what: "in flight: one crash after its last request naming a published key (or its last request), the answer never heard" },
  ];
  const plans: { crash: Fault; what: string }[] = [{ crash: early, what: 'early: one crash before its first step naming the first key' }];
  for (const { crash, what } of later) if (crash !== undefined && !plans.some((p) => JSON.stringify(p.crash) === JSON.stringify(crash))) plans.push({ crash, what });
  return plans.map(({ crash, what }) => ({ scenario: { ...structuredClone(base), faults: [crash] }, what }));
}

/** The restart scenarios alone (realRestartPlans), the early one first. */
export function realRestartScenarios(base: Scenario, faultFree?: readonly TraceEntry[]): Scenario[] {
  return realRestartPlans(base, faultFree).map((plan) => plan.scenario);
}

/** The first incarnation's own steps in the fault-free run. */
function firstSteps(trace: readonly TraceEntry[]): TraceEntry[] {
  return trace.filter((e) => e.actor === 'worker-0' && (e.incarnation ?? 0) === 0 && e.step !== undefined && !e.op.endsWith(':result'));
}

/** A crash of the first process at `step` of the fault-free run, anchored on what the step names; undefined when it cannot be. */
function anchoredCrash(base: Scenario, trace: readonly TraceEntry[], step: number, when: 'before' | 'after'): Fault | undefined {
  const numbered: Scenario = { ...base, faults: [{ kind: 'crash', process: 0, incarnation: 0, step, when, mode: 'keep-all' }] };
  const fault = anchoredInPlace(numbered, trace).faults[0];
  return fault !== undefined && 'at' in fault && fault.at !== undefined ? fault : undefined;
}

/** The later crash (above), anchored; undefined when the fault-free run has no step to place it before. */
function lateCrash(base: Scenario, trace: readonly TraceEntry[]): Fault | undefined {
  const names = taskNames(base);
  const lastKey = base.task.operations.at(-1)?.key as string;
  const answered = trace.find((e) => e.actor === 'service' && e.op === 'receive')?.seq ?? Infinity;
  const own = firstSteps(trace);
  const atLastKey = own.find((e) => e.seq > answered && stepMentions(e.op, e.detail, lastKey));
  const at = atLastKey ?? own.filter((e) => names.some((name) => stepMentions(e.op, e.detail, name))).at(-1);
  return at === undefined ? undefined : anchoredCrash(base, trace, at.step as number, 'before');
}

/** The crash in flight (above), anchored; undefined when the fault-free run sent no request. */
function inFlightCrash(base: Scenario, trace: readonly TraceEntry[]): Fault | undefined {
  const published = base.task.operations.filter((op) => op.kind === 'publish').map((op) => op.key);
  const requests = firstSteps(trace).filter((e) => e.op === 'fetch');
  const at = requests.filter((e) => published.some((key) => stepMentions(e.op, e.detail, key))).at(-1) ?? requests.at(-1);
  return at === undefined ? undefined : anchoredCrash(base, trace, at.step as number, 'after');
}
