/**
 * A real restart, to cross-check a clean verdict (check's default; --no-real-restart leaves it out):
 * the task's fault-free scenario with one crash — the first process killed (a process kill: what it
 * wrote stays in the page cache) — so that the restarted process runs where memory really dies with
 * a process. What a crash should have forgotten and the simulation kept (a place the restore of the
 * shared objects does not reach) shows as the two worlds parting after the restart; confirm
 * (src/confirm/confirmScenario.ts) runs it and names the step.
 *
 * Where the crashes strike: four restarts. One, a crash of the first process before its
 * first step that names the task's first key, after its start-up has run (memory left as the
 * modules load or the task starts). One later, read from the fault-free run: before the first
 * step that names the task's last key once the service has answered a request (the work before it
 * done, the last operation's still to do; anchored there: src/runner/anchorFaults.ts), else before
 * the last step that names the task. By then the process has left what it leaves as it works,
 * which the first restart misses (properties/attacks/pending/own/e04), and the restarted process
 * still has work in which a path memory changed can break something (a parting is seen only when
 * real processes break an invariant). One in flight, a chain of crashes: for the last operation of
 * each kind (publish, lookup, edit), in the task's order, the next incarnation is killed before the
 * last step naming its key (a publish's after its request, the answer never heard; an edit's after
 * the file is placed, before it is recorded), so each restarted process recovers an operation a
 * crash cut short, the window every journal has its own path for. At the other two every earlier
 * key is done, so memory read only in such a recovery went unseen (properties/attacks/pending/own/
 * e05: a request in flight; e06: an edit). And the same chain a step earlier: for the same operations, the crash
 * before the step before that one naming the operation (its key, or a path or resource no other operation names): a
 * publish's request (recorded dispatched, never sent), an edit's link (the user's file moved aside, the candidate not
 * placed), a lookup's dispatched record; the first chain missed memory read only there (blind6/h05). The same crashes
 * twice, or no such step, is one restart less.
 */
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { anchoredInPlace, taskNames } from './anchorFaults.js';
import { stepMentions } from '../../simulator/scenario/scenarioEvents.js';

/** A restart: its scenario, and where its crashes strike, as its report says. */
export interface RestartPlan {
  scenario: Scenario;
  what: string;
}

/** The restarts for `base` (the sweep's base: the task as check draws it, fault-free): early, late, in flight; none for a task with no operation. `faultFree`: the trace of `base` run (without it, the early one alone). */
export function realRestartPlans(base: Scenario, faultFree?: readonly TraceEntry[]): RestartPlan[] {
  const key = base.task.operations[0]?.key;
  if (key === undefined) return [];
  const early: Fault = { kind: 'crash', process: 0, incarnation: 0, at: { mentions: key, occurrence: 0 }, when: 'before', mode: 'keep-all' };
  const late = faultFree === undefined ? undefined : lateCrash(base, faultFree);
  const later = faultFree === undefined ? [] : [
    { crashes: late === undefined ? [] : [late], what: 'late: one crash before its first step naming the last key once the service has answered, or its last step naming the task' },
    { crashes: inFlightChain(base, faultFree), what: 'in flight: for the last operation of each kind, the next incarnation killed before its last step naming its key, the restarted one recovering it' },
    { crashes: earlierChain(base, faultFree), what: 'in flight, a step earlier: for the same operations, the next incarnation killed before the step before that one naming the operation (its request, its file placed), the restarted one recovering it' },
  ];
  const plans: { crashes: Fault[]; what: string }[] = [{ crashes: [early], what: 'early: one crash before its first step naming the first key' }];
  for (const { crashes, what } of later) if (crashes.length > 0 && !plans.some((p) => JSON.stringify(p.crashes) === JSON.stringify(crashes))) plans.push({ crashes, what });
  return plans.map(({ crashes, what }) => ({ scenario: { ...structuredClone(base), faults: crashes }, what }));
}

/** The restart scenarios alone (realRestartPlans), the early one first. */
export function realRestartScenarios(base: Scenario, faultFree?: readonly TraceEntry[]): Scenario[] {
  return realRestartPlans(base, faultFree).map((plan) => plan.scenario);
}

/** The first incarnation's own steps in the fault-free run. */
function firstSteps(trace: readonly TraceEntry[]): TraceEntry[] {
  return trace.filter((e) => e.actor === 'worker-0' && (e.incarnation ?? 0) === 0 && e.step !== undefined && !e.op.endsWith(':result'));
}

/** A crash of the first process before `step` of the fault-free run, anchored on what the step names; undefined when it cannot be. */
function anchoredCrash(base: Scenario, trace: readonly TraceEntry[], step: number): Fault | undefined {
  const numbered: Scenario = { ...base, faults: [{ kind: 'crash', process: 0, incarnation: 0, step, when: 'before', mode: 'keep-all' }] };
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
  return at === undefined ? undefined : anchoredCrash(base, trace, at.step as number);
}

/**
 * The chain in flight (above): one crash per incarnation, the k-th before the last step naming the key of the k-th
 * operation chosen, counted as the fault-free run names it (a restarted process does that operation's steps as a fresh one
 * does, after its recovery of the one before); an operation no step names twice (nothing before its last step to recover)
 * is left out, and the chain stays within the scenario's bound on incarnations.
 */
function inFlightChain(base: Scenario, trace: readonly TraceEntry[]): Fault[] {
  const own = firstSteps(trace);
  const ops = base.task.operations;
  const lastOfKind = ops.filter((op, i) => !ops.slice(i + 1).some((later) => later.kind === op.kind));
  const crashes: Fault[] = [];
  for (const op of lastOfKind) {
    const naming = own.filter((e) => stepMentions(e.op, e.detail, op.key)).length;
    if (naming < 2 || crashes.length + 1 >= base.bounds.maxIncarnations) continue;
    crashes.push({ kind: 'crash', process: 0, incarnation: crashes.length, at: { mentions: op.key, occurrence: naming - 1 }, when: 'before', mode: 'keep-all' });
  }
  return crashes;
}

/**
 * The chain a step earlier (above): for the same operations, one crash per incarnation before the last step
 * inside the operation (after its first step naming its key) that names it — its key, or a name of its own no
 * other operation of the task names (an edit's path, a lookup's resource) — before its last step naming its
 * key: a publish's request (recorded dispatched, never sent), an edit's placing of its file (the user's file
 * moved aside), a lookup's dispatched record. Anchored on that name, counted as the fault-free run names it.
 */
function earlierChain(base: Scenario, trace: readonly TraceEntry[]): Fault[] {
  const own = firstSteps(trace);
  const ops = base.task.operations;
  const lastOfKind = ops.filter((op, i) => !ops.slice(i + 1).some((later) => later.kind === op.kind));
  const namesOf = (op: (typeof ops)[number]): string[] => (op.kind === 'edit' ? [op.path] : op.kind === 'lookup' ? [op.resource] : op.input ? [op.input.resource] : []);
  const sharedNames = new Set(ops.flatMap((op, i) => namesOf(op).filter((name) => ops.some((other, j) => j !== i && (other.key === name || namesOf(other).includes(name))))));
  const crashes: Fault[] = [];
  for (const op of lastOfKind) {
    const names = [op.key, ...namesOf(op).filter((name) => !sharedNames.has(name))];
    const naming = own.filter((e) => stepMentions(e.op, e.detail, op.key));
    const first = naming[0];
    const last = naming.at(-1);
    if (first === undefined || last === undefined || crashes.length + 1 >= base.bounds.maxIncarnations) continue;
    const at = own.filter((e) => e.seq > first.seq && e.seq < last.seq && names.some((name) => stepMentions(e.op, e.detail, name))).at(-1);
    const mentions = at === undefined ? undefined : names.find((name) => stepMentions(at.op, at.detail, name));
    if (at === undefined || mentions === undefined) continue;
    const occurrence = own.filter((e) => e.seq < at.seq && stepMentions(e.op, e.detail, mentions)).length;
    crashes.push({ kind: 'crash', process: 0, incarnation: crashes.length, at: { mentions, occurrence }, when: 'before', mode: 'keep-all' });
  }
  return crashes;
}
