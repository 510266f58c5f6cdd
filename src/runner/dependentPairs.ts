/**
 * Explore's depth 2 pruned by dependency: of the points of a depth-1 state's continuation (the run
 * with the first fault, every worker step after it, before and after), a second fault is tried only
 * at one whose step touches something the first fault's step touched (stepTouches.ts). The pairs
 * kept are tried in order of how closely they depend, so that a run budget (`--max-runs`) spends
 * itself on the closest first:
 *
 * 1. the kind of the most specific thing both steps touch: the same key, then the same file, then
 *    the same store entry, then the same lease;
 * 2. then the nearer steps: how many global steps lie between the first fault's step and the
 *    second's (0: the same step, its other side);
 * 3. then exploration order: the first state's, then the point's place in its continuation.
 */
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { dependency, TOUCH_KINDS, type TouchKind } from './stepTouches.js';

/** The names whose mention makes a step touch a key: the task's operation keys and the resources it reads or plans from. */
export function dependencyNames(scenario: Scenario): string[] {
  const ops = [...scenario.task.operations, ...(scenario.taskAfterRestart?.operations ?? [])];
  const resources = ops.flatMap((op) => (op.kind === 'lookup' ? [op.resource] : op.kind === 'publish' && op.input ? [op.input.resource] : []));
  return [...new Set([...ops.map((op) => op.key), ...resources])];
}

/** Where a step is and what it touches (a crash point). */
export interface TouchingPoint {
  globalStep: number;
  touches: readonly string[];
}

/** A second point kept for a first state: how closely it depends on the first fault's step. */
export interface DependentPair<P extends TouchingPoint> {
  /** The first state's place in exploration order. */
  first: number;
  point: P;
  /** Its place in the first state's continuation. */
  index: number;
  /** The most specific thing both steps touch. */
  kind: TouchKind;
  /** Global steps between the two steps. */
  distance: number;
}

/** Per first state: how many pairs there were, and the ones dependency keeps. */
export function dependentPairs<P extends TouchingPoint>(first: number, firstPoint: TouchingPoint, continuation: readonly P[]): DependentPair<P>[] {
  const kept: DependentPair<P>[] = [];
  continuation.forEach((point, index) => {
    const rank = dependency(firstPoint.touches, point.touches);
    if (rank === undefined) return;
    kept.push({ first, point, index, kind: TOUCH_KINDS[rank] as TouchKind, distance: Math.abs(point.globalStep - firstPoint.globalStep) });
  });
  return kept;
}

/** The order the kept pairs are tried in: the closest dependency first, then the nearest steps, then exploration order. */
export function byDependency<P extends TouchingPoint>(a: DependentPair<P>, b: DependentPair<P>): number {
  return TOUCH_KINDS.indexOf(a.kind) - TOUCH_KINDS.indexOf(b.kind) || a.distance - b.distance || a.first - b.first || a.index - b.index;
}
