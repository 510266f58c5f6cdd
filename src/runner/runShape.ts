/**
 * The shape of a check's runs, and whether a scenario keeps to it: what every smaller scenario a
 * shrink or a simplification tries must keep to, so that a counterexample of `check --operations
 * lookup` holds lookups only, and one of `check --faults crash` no lost answer. A run's shape is
 *
 * - the operation kinds of its workload (the config's "operations", `--operations`, or a `--task`'s
 *   own operations), and the workload itself (the operation a lone one is simplified toward);
 * - the task features it may carry (`features`, `--features`);
 * - the fault families it draws (`faults`, `--faults`; src/faultFamilies.ts says which family a
 *   fault is of), and the service's idempotency memory: `volatile` and `none` are drawn with the
 *   `service-restart` family only, and neither under a contract that promises its keys (durable, or a time-to-live:
 *   a shrink that made the user's service one without keys blamed a re-send on what their contract says never
 *   happens);
 * - for a task from the journal's own input file, every one of its operations.
 *
 * A shape is never narrower than the finding it shrinks: what the failing scenario itself holds is
 * allowed (a shrink may lose what it found, never gain what the run could not draw).
 */
import type { Operation } from '../../model/contract/contract.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { DEFAULT_FAULT_KINDS, drawnKeyMemories, workloadOf, type FaultKind, type ScenarioArbitraryOptions } from '../arbitraries.js';
import { faultFamiliesOf } from '../faultFamilies.js';
import { OPERATION_KINDS, TASK_FEATURES, outsideShape, shapeOf, type OperationKind, type TaskFeature } from '../taskShape.js';

type Memory = Scenario['service']['idempotencyMemory'];

export interface RunShape {
  /** The operations a run draws from, in order: the first is what a lone operation is simplified toward. */
  workload: readonly Operation[];
  operations: readonly OperationKind[];
  features: readonly TaskFeature[];
  families: readonly FaultKind[];
  /** The service's idempotency memories a run may hold. */
  memories: readonly Memory[];
  /** Every run holds every operation of the workload (a task from the journal's own input file: src/inputTask.ts). */
  everyOperation?: boolean;
}

/** The shape of the runs these generator options draw, widened by what `found` (the failing scenario) holds. */
export function runShapeOf(options: ScenarioArbitraryOptions, found?: Scenario): RunShape {
  const workload = workloadOf(options);
  const families = new Set<FaultKind>(options.faults ?? DEFAULT_FAULT_KINDS);
  const operations = new Set<OperationKind>(workload.map((op) => op.kind));
  const features = new Set<TaskFeature>(options.features ?? TASK_FEATURES);
  // As the generator draws them (src/arbitraries.ts): a contract that promises its keys never forgets them, nor keeps none.
  const memories = new Set<Memory>(families.has('service-restart') ? drawnKeyMemories(options) : ['durable']);
  if (found) {
    const held = shapeOf(found);
    for (const kind of held.operations) operations.add(kind);
    for (const feature of held.features) features.add(feature);
    for (const family of faultFamiliesOf(found)) families.add(family);
    memories.add(found.service.idempotencyMemory);
  }
  return {
    workload,
    operations: OPERATION_KINDS.filter((kind) => operations.has(kind)),
    features: TASK_FEATURES.filter((f) => features.has(f)),
    families: [...families],
    memories: [...memories],
    ...(options.allOperations ? { everyOperation: true } : {}),
  };
}

/** What a scenario holds outside the shape: "operation publish", "feature token", "family response", "idempotency memory none"; empty when it keeps to it. */
export function outsideRunShape(scenario: Scenario, shape: RunShape): string[] {
  const memory = scenario.service.idempotencyMemory;
  return [
    ...outsideShape(scenario, shape),
    ...faultFamiliesOf(scenario).filter((family) => !shape.families.includes(family)).map((family) => `family ${family}`),
    ...(shape.memories.includes(memory) ? [] : [`idempotency memory ${memory}`]),
    ...(shape.everyOperation && scenario.task.operations.length < shape.workload.length ? ['an operation of the task left out'] : []),
  ];
}

/** Whether a scenario keeps to the shape. */
export function inRunShape(scenario: Scenario, shape: RunShape): boolean {
  return outsideRunShape(scenario, shape).length === 0;
}
