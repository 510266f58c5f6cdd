/**
 * The task shape: which operation kinds a journal supports and which task features a generated run
 * may carry (durasim.config.json's "operations" and "features", check's --operations and
 * --features), and what a scenario holds of them — so stored regressions outside a shape are not
 * replayed and explore's base keeps to it.
 */
import type { Operation } from '../model/contract/contract.js';
import type { Scenario } from '../simulator/scenario/scenario.js';

/** The operation kinds of a task. */
export const OPERATION_KINDS = ['publish', 'lookup', 'edit'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/**
 * The task features a generated run may carry: an access token that must never be persisted
 * (`token`), a retry budget (`budget`, with the failure family), a cancel (`cancel`, with the user
 * family), publishes planned from a versioned input that changes (`input`, with the user family),
 * and temp files in a folder shared with other tasks (`temp`).
 */
export const TASK_FEATURES = ['token', 'budget', 'cancel', 'input', 'temp'] as const;
export type TaskFeature = (typeof TASK_FEATURES)[number];

/** The operation kinds and task features a scenario holds: what a task shape must allow for it to be in the shape. */
export function shapeOf(scenario: Scenario): { operations: OperationKind[]; features: TaskFeature[] } {
  const ops = [...scenario.task.operations, ...(scenario.taskAfterRestart?.operations ?? [])];
  const has: Record<TaskFeature, boolean> = {
    token: scenario.task.accessToken !== undefined,
    budget: scenario.task.retryBudget !== undefined,
    cancel: scenario.faults.some((f) => f.kind === 'cancel'),
    input: scenario.faults.some((f) => f.kind === 'input-change') || ops.some((op) => op.kind === 'publish' && op.input !== undefined),
    temp: scenario.task.temp !== undefined,
  };
  return { operations: OPERATION_KINDS.filter((kind) => ops.some((op) => op.kind === kind)), features: TASK_FEATURES.filter((f) => has[f]) };
}

/** What a scenario (a stored regression) holds that the task shape leaves out: "operation <kind>", "feature <name>". */
export function outsideShape(scenario: Scenario, shape: TaskShape): string[] {
  const held = shapeOf(scenario);
  return [
    ...held.operations.filter((kind) => shape.operations !== undefined && !shape.operations.includes(kind)).map((kind) => `operation ${kind}`),
    ...held.features.filter((f) => shape.features !== undefined && !shape.features.includes(f)).map((f) => `feature ${f}`),
  ];
}

/** Whether a scenario (a stored regression) is in the task shape: no operation kind and no feature the shape leaves out. */
export function inShape(scenario: Scenario, shape: TaskShape): boolean {
  return outsideShape(scenario, shape).length === 0;
}

/** A task shape: the kinds and features in play (either left out: all). */
export interface TaskShape {
  operations?: readonly OperationKind[] | undefined;
  features?: readonly TaskFeature[] | undefined;
}

/** `scenario` narrowed to a task shape: the operations of other kinds and the features it leaves out taken away (explore's default base, under a config). */
export function shapedScenario(scenario: Scenario, shape: TaskShape): Scenario {
  const narrowed = structuredClone(scenario);
  const keep = (op: Operation): boolean => shape.operations === undefined || shape.operations.includes(op.kind);
  const feature = (name: TaskFeature): boolean => shape.features === undefined || shape.features.includes(name);
  narrowed.task.operations = narrowed.task.operations.filter(keep);
  if (narrowed.taskAfterRestart) narrowed.taskAfterRestart.operations = narrowed.taskAfterRestart.operations.filter(keep);
  if (!feature('token')) delete narrowed.task.accessToken;
  if (!feature('budget')) delete narrowed.task.retryBudget;
  if (!feature('input')) for (const op of [...narrowed.task.operations, ...(narrowed.taskAfterRestart?.operations ?? [])]) if (op.kind === 'publish') delete op.input;
  if (!feature('temp') && narrowed.task.temp) {
    const dir = `${narrowed.task.temp.dir}/`;
    delete narrowed.task.temp;
    narrowed.files = Object.fromEntries(Object.entries(narrowed.files).filter(([path]) => !path.startsWith(dir)));
  }
  narrowed.faults = narrowed.faults.filter((f) => (f.kind !== 'cancel' || feature('cancel')) && (f.kind !== 'input-change' || feature('input')));
  return narrowed;
}

