/**
 * One worker fewer, the second worker's start as the first one's restart. A second worker (a
 * duplicate delivery) often matters to a failure only as a fresh process that recovers from what
 * the first left on disk — which a kill of the first worker and its restart show with one process,
 * in fewer steps: no two workers' steps interleaved, no wait for the other's lock. The duplicate
 * delivery becomes a kill of worker 0 at one of the first calls that name what the delivery was
 * anchored to (or the task's first key), after or before it, and the second worker's faults become
 * worker 0's, each one incarnation later. Only with one duplicate delivery and no fault of worker
 * 0's own (its later incarnations are then free for the second worker's); the same number of
 * faults, so simplifyScenario.ts takes it only when the trace gets shorter.
 */
import { isStepFault, type Fault, type Scenario } from '../../simulator/scenario/scenario.js';
import { taskNames } from './anchorFaults.js';

/** How many of the anchor's occurrences the kill is tried at, from the delivery's own. */
const OCCURRENCES = 4;

export function secondWorkerAsRestart(scenario: Scenario): Scenario[] {
  const duplicates = scenario.faults.filter((f) => f.kind === 'duplicate-delivery');
  const duplicate = duplicates[0];
  if (duplicate === undefined || duplicates.length > 1) return [];
  // Worker 0's incarnations must be free for the second worker's, and nothing may address a second process.
  if (scenario.faults.some((f) => (isStepFault(f) && f.process !== 1) || (f.kind === 'concurrent-call' && f.process !== 0))) return [];
  const names = taskNames(scenario);
  const named = duplicate.at !== undefined && names.includes(duplicate.at.mentions) ? duplicate.at : undefined;
  const mentions = named?.mentions ?? names[0];
  if (mentions === undefined) return [];
  const from = named?.occurrence ?? 0;
  const others = scenario.faults.filter((f) => f !== duplicate && !isStepFault(f));
  const second = scenario.faults.filter(isStepFault).map((f) => ({ ...f, process: 0, incarnation: f.incarnation + 1 }) as Fault);
  return Array.from({ length: OCCURRENCES }, (_, i) => from + i).flatMap((occurrence) => (['after', 'before'] as const).map((when) => ({
    ...scenario,
    faults: [...others, { kind: 'crash', process: 0, incarnation: 0, at: { mentions, occurrence }, when, mode: 'keep-all' } as Fault, ...second],
    schedule: [],
  })));
}
