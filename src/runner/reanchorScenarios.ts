/**
 * Rewrites for anchored faults, which the rewrites of simplifyScenario.ts written for faults
 * placed by number cannot make. Since every fault of a finding is anchored where it landed
 * (anchorFaults.ts) and the generator places most of them anchored, a fault is seldom numbered by
 * the time the rewrites run, and one anchored where it landed pins what it names:
 * - a timed fault (a store edit, a takeover, a duplicate delivery…) anchored to a step is tried at
 *   an earlier occurrence, then numbered at one of the first global steps: the work it came
 *   after may be what was dropped, and a fault just after the start needs no anchor at all;
 * - a fault anchored to a step's kind (`fh.sync`, `POST`) counts every operation's steps of that
 *   kind: with an operation dropped, its occurrence is tried scaled to the operations left;
 * - a worker's fault anchored to a step's kind is tried anchored to each of the task's names
 *   instead (a key's n-th step), as a numbered crash is (anchoredScenarios), so the operations
 *   it did not name can go;
 * - an operation of the workload is tried replaced by an earlier one the task does not hold (a
 *   lookup and an edit by two publishes), the faults anchored to its names re-anchored to the new
 *   key's.
 * Each of them lowers a rank (an occurrence, a numbered step, a kind anchor made a name anchor, an
 * operation's place in the workload) or comes with something dropped, so taking them ends.
 */
import type { Operation } from '../../model/contract/contract.js';
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';

/** The faults that are no worker's own step, placed by `atStep` or by an event anchor. */
export const TIMED = new Set(['user-edit', 'duplicate-delivery', 'concurrent-call', 'service-restart', 'store-restart', 'store-edit', 'takeover', 'cancel', 'input-change']);

/** The first global steps an anchored timed fault is tried numbered at, earliest first. */
const FIRST_STEPS = [0, 1, 2, 4, 8];

type Anchored = Fault & { at: { mentions: string; occurrence: number } };
const anchored = (f: Fault): f is Anchored => 'at' in f && f.at !== undefined;
const timedAnchored = (f: Fault): f is Anchored => TIMED.has(f.kind) && anchored(f);

/** The names the task's operations give their steps: keys, edited paths, looked-up resources, planned inputs. */
export function operationNames(op: Operation): string[] {
  return [op.key, ...(op.kind === 'edit' ? [op.path] : []), ...(op.kind === 'lookup' ? [op.resource] : []), ...(op.kind === 'publish' && op.input ? [op.input.resource] : [])];
}

function taskNameSet(scenario: Scenario): Set<string> {
  return new Set([...scenario.task.operations, ...(scenario.taskAfterRestart?.operations ?? [])].flatMap(operationNames).concat(scenario.task.temp ? [scenario.task.temp.dir] : []));
}

/** Whether a fault is anchored to a step's kind (`fh.sync`, `POST`, `store.renew`) rather than to one of the task's names. */
const kindAnchored = (f: Fault, names: ReadonlySet<string>): f is Anchored => anchored(f) && f.kind !== 'response' && !names.has(f.at.mentions);

/** The scenario, then with its anchored timed faults at an earlier occurrence, then numbered at the first global steps. */
export function earlierAnchored(scenario: Scenario): Scenario[] {
  if (!scenario.faults.some(timedAnchored)) return [];
  const moved = (to: (f: Anchored) => Fault): Scenario => ({ ...scenario, faults: scenario.faults.map((f) => (timedAnchored(f) ? to(f) : f)) });
  const out: Scenario[] = [];
  if (scenario.faults.some((f) => timedAnchored(f) && f.at.occurrence > 0)) {
    out.push(moved((f) => ({ ...f, at: { ...f.at, occurrence: Math.max(0, f.at.occurrence - 1) } }) as Fault));
    out.push(moved((f) => ({ ...f, at: { ...f.at, occurrence: 0 } }) as Fault));
  }
  for (const atStep of FIRST_STEPS) {
    out.push(moved((f) => {
      const { at: _, ...rest } = f;
      return { ...rest, atStep } as Fault;
    }));
  }
  return out;
}

/**
 * `scenario` with an operation already dropped (`kept` of `total` left): its kind-anchored faults'
 * occurrences scaled to the operations left, then halved. Empty when it has none above 0.
 */
export function fewerKindOccurrences(scenario: Scenario, kept: number, total: number): Scenario[] {
  const names = taskNameSet(scenario);
  if (!scenario.faults.some((f) => kindAnchored(f, names) && f.at.occurrence > 0)) return [];
  const scaled = (factor: number): Scenario => ({
    ...scenario,
    faults: scenario.faults.map((f) => (kindAnchored(f, names) ? ({ ...f, at: { ...f.at, occurrence: Math.floor(f.at.occurrence * factor) } } as Fault) : f)),
  });
  return [...new Set([kept / total, (kept - 0.5) / total, 0.5].filter((factor) => factor > 0 && factor < 1))].map(scaled);
}

/** Each worker's fault (a crash, an I/O error, a pause) anchored to a step's kind, anchored instead to one of the task's names, its first steps first. */
export function kindToNameAnchored(scenario: Scenario): Scenario[] {
  const names = taskNameSet(scenario);
  const ordered = scenario.task.operations.flatMap(operationNames);
  return scenario.faults.flatMap((fault, i) => {
    if ((fault.kind !== 'crash' && fault.kind !== 'io-error' && fault.kind !== 'pause') || !kindAnchored(fault, names)) return [];
    const whens = fault.kind === 'crash' ? (fault.when === 'after' ? (['after', 'before'] as const) : (['before', 'after'] as const)) : [undefined];
    return ordered.flatMap((mentions) => whens.flatMap((when) => [0, 1, 2, 3].map((occurrence) => ({
      ...scenario,
      faults: scenario.faults.map((f, k) => (k === i ? ({ ...f, ...(when ? { when } : {}), at: { ...fault.at, mentions, occurrence } } as Fault) : f)),
    }))));
  });
}

/**
 * Each operation of the run's workload replaced by an earlier one of the workload the task does not
 * hold, the faults anchored to its names anchored to the new key's instead (the same occurrence).
 * Never on a user's own task (its operations are not the workload's), nor with an intent change.
 */
export function earlierOperations(scenario: Scenario, workload: readonly Operation[]): Scenario[] {
  if (scenario.taskAfterRestart) return [];
  const plain = (op: unknown): string => JSON.stringify({ ...(op as object), input: undefined });
  const place = (op: Operation): number => workload.findIndex((w) => plain(w) === plain(op));
  const operations = scenario.task.operations;
  const held = new Set(operations.map((op) => op.key));
  return operations.flatMap((op, i) => {
    const at = place(op);
    if (at <= 0) return [];
    const oldNames = new Set(operationNames(op));
    return workload.slice(0, at).filter((w) => !held.has(w.key)).map((w) => ({
      ...scenario,
      task: { ...scenario.task, operations: operations.map((o, k) => (k === i ? { ...w } : o)) },
      service: { ...scenario.service, existing: scenario.service.existing.filter((e) => e.key !== op.key) },
      faults: scenario.faults.flatMap((f) => (f.kind === 'user-edit' && op.kind === 'edit' && f.path === op.path ? [] : anchored(f) && oldNames.has(f.at.mentions) ? [{ ...f, at: { ...f.at, mentions: w.key } } as Fault] : [f])),
    }));
  });
}
