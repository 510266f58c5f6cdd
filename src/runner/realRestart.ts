/**
 * A real restart, to cross-check a clean verdict (check --confirm): the task's fault-free scenario
 * with one crash — the first process killed (a process kill: what it wrote stays in the page cache)
 * before its first step that names the task's first key, after its start-up has run — so that the
 * restarted process runs where memory really dies with a process. What a crash should have forgotten and the simulation kept (a place the restore of the
 * shared objects does not reach) shows as the two worlds parting after the restart; confirm
 * (src/confirm/confirmScenario.ts) runs it and names the step.
 */
import type { Scenario } from '../../simulator/scenario/scenario.js';

/** The restart scenario for `base` (the sweep's base: the task as check draws it, fault-free), or undefined for a task with no operation. */
export function realRestartScenario(base: Scenario): Scenario | undefined {
  const key = base.task.operations[0]?.key;
  if (key === undefined) return undefined;
  return { ...structuredClone(base), faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: key, occurrence: 0 }, when: 'before', mode: 'keep-all' }] };
}
