/**
 * Every fault placed by number, re-placed where it landed by an anchor, read from the run's trace:
 * a worker's step (a crash, an I/O error, a pause) by its incarnation's n-th step that names one
 * of the task's keys, paths or resources; a timed fault (a cancel, an input change, a duplicate
 * delivery, a concurrent call, a restart, a store edit, a takeover) by the n-th worker step, of
 * any worker, that names one, just before it; a service's answer by the n-th request about its key
 * or resource; a store call's fault by the n-th store call of its kind. The run is the same (a
 * caller checks it still fails), and each fault stays in its window when shrinking drops an
 * operation or a fault that only shifted the others' timing. A step that names nothing of the
 * task is anchored by its kind (`clock.timeout`, `fh.sync`); a fault whose step never came stays
 * numbered. Timed faults and store calls are anchored only in format 3 (the formats before it
 * place them by number).
 */
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import { EVENT_ANCHOR_VERSION } from '../../simulator/scenario/scenario.js';
import { stepMentions } from '../../simulator/scenario/scenarioEvents.js';
import { routeOf } from '../../simulator/service/service.js';
import type { TraceEntry } from '../../simulator/world/trace.js';

/** The names a task's steps mention: its keys first, then the files it edits, the resources it reads or plans from, its temp folder. */
export function taskNames(scenario: Scenario): string[] {
  const ops = [...scenario.task.operations, ...(scenario.taskAfterRestart?.operations ?? [])];
  const keys = ops.map((op) => op.key);
  const paths = ops.flatMap((op) => (op.kind === 'edit' ? [op.path] : []));
  const resources = ops.flatMap((op) => (op.kind === 'lookup' ? [op.resource] : op.kind === 'publish' && op.input ? [op.input.resource] : []));
  return [...new Set([...keys, ...paths, ...resources, ...(scenario.task.temp ? [scenario.task.temp.dir] : [])])];
}

const isStep = (e: TraceEntry): boolean => e.step !== undefined && e.actor.startsWith('worker-') && !e.op.endsWith(':result');

/** What an anchor on this step should name: the first of the task's names its line mentions, else its kind. */
function subjectOf(e: TraceEntry, names: readonly string[]): string {
  return names.find((name) => stepMentions(e.op, e.detail, name)) ?? e.op;
}

export function anchoredInPlace(scenario: Scenario, trace: readonly TraceEntry[]): Scenario {
  const names = taskNames(scenario);
  const steps = trace.filter(isStep);
  const events = scenario.version >= EVENT_ANCHOR_VERSION;
  const receipts = trace.filter((e) => e.actor === 'service' && e.op === 'receive');
  const storeCalls = trace.filter((e) => e.actor === 'store' && /^#\d+ /.test(e.detail));
  const anchorOf = (fault: Fault): Fault => {
    if ((fault.kind === 'crash' || fault.kind === 'io-error' || fault.kind === 'pause') && fault.step !== undefined) {
      const own = steps.filter((e) => e.actor === `worker-${fault.process}` && (e.incarnation ?? 0) === fault.incarnation);
      const at = own.find((e) => e.step === fault.step);
      if (at === undefined) return fault;
      const mentions = subjectOf(at, names);
      const occurrence = own.filter((e) => (e.step as number) < (fault.step as number) && stepMentions(e.op, e.detail, mentions)).length;
      const { step: _, ...rest } = fault;
      return { ...rest, at: { mentions, occurrence } } as Fault;
    }
    if (fault.kind === 'response' && fault.request !== undefined) {
      const subjectAt = (e: TraceEntry): string | undefined => {
        const said = /^#\d+ (\S+) (\S+)/.exec(e.detail);
        const route = said ? routeOf(said[1] as string, said[2] as string) : undefined;
        return route?.kind === 'resource' ? route.name : route?.kind === 'publish' || route?.kind === 'query' ? route.key : undefined;
      };
      const index = receipts.findIndex((e) => e.detail.startsWith(`#${fault.request} `));
      const subject = index === -1 ? undefined : subjectAt(receipts[index] as TraceEntry);
      if (subject === undefined) return fault;
      const { request: _, ...rest } = fault;
      return { ...rest, at: { mentions: subject, occurrence: receipts.slice(0, index).filter((e) => subjectAt(e) === subject).length } } as Fault;
    }
    if (!events) return fault;
    if ('atStep' in fault && fault.atStep !== undefined && fault.kind !== 'user-edit') {
      const at = steps.find((e) => e.globalStep === fault.atStep);
      if (at === undefined) return fault;
      const mentions = subjectOf(at, names);
      const occurrence = steps.filter((e) => (e.globalStep as number) < (fault.atStep as number) && stepMentions(e.op, e.detail, mentions)).length;
      const { atStep: _, ...rest } = fault;
      return { ...rest, at: { mentions, occurrence } } as Fault;
    }
    if (fault.kind === 'store-call' && fault.call !== undefined) {
      const index = storeCalls.findIndex((e) => e.detail.startsWith(`#${fault.call} `));
      const call = storeCalls[index];
      if (call === undefined) return fault;
      const { call: _, ...rest } = fault;
      return { ...rest, at: { mentions: `store.${call.op}`, occurrence: storeCalls.slice(0, index).filter((e) => e.op === call.op).length } } as Fault;
    }
    return fault;
  };
  // A numbered response fault takes its request before any anchored one (service.ts): all of them are anchored together, so the ranks count every request.
  const faults = scenario.faults.map(anchorOf);
  return { ...scenario, faults };
}

/** Whether a scenario places any fault by number that anchoredInPlace could anchor. */
export function hasNumberedFaults(scenario: Scenario): boolean {
  const events = scenario.version >= EVENT_ANCHOR_VERSION;
  return scenario.faults.some((f) =>
    ((f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'pause') && f.step !== undefined) ||
    (events && f.kind !== 'user-edit' && 'atStep' in f && f.atStep !== undefined) ||
    (events && f.kind === 'store-call' && f.call !== undefined) ||
    (f.kind === 'response' && f.request !== undefined));
}
