/**
 * Causes first: a run's violations grouped by the key they concern, each group led by its root
 * cause, with what follows from it underneath. A rule about what the journal *did* (sent under an
 * invented key, re-sent without asking, wrote before its intent was durable, skipped a state) is a
 * cause; a wrong outcome (two effects, a false claim, a lost edit, no convergence) is what follows.
 */
import type { InvariantCode, Violation } from './violation.js';

/** Most causal first. */
export const CAUSAL_ORDER: readonly InvariantCode[] = [
  'routed-requests',
  'projection-consistent',
  'takeover-exclusive',
  'cas-loser-stops',
  'single-advancer',
  'fenced-effects',
  'no-effect-after-cancel',
  'version-change-pauses',
  'failure-class-respected',
  'retry-budget',
  'evidence-retained',
  'no-blind-retry',
  'retry-safe-only',
  'completed-replayed',
  'single-flight',
  'recorded-intent-wins',
  'write-ahead',
  'no-state-skip',
  'file-truth',
  'truthful-outcome',
  'fault-free-effects',
  'no-silent-overwrite',
  'one-effect-per-key',
  'no-secret-persisted',
  'cleanup-owned-only',
  'cancel-truth',
  'journal-error',
  'convergence',
];

export interface CauseGroup {
  key: string;
  root: Violation;
  /** Violations of the same key that follow from the root, most causal first. */
  derived: Violation[];
}

const rank = (v: Violation): number => CAUSAL_ORDER.indexOf(v.code);

export function byCause(violations: readonly Violation[]): CauseGroup[] {
  const groups = new Map<string, Violation[]>();
  for (const v of violations) groups.set(v.key, [...(groups.get(v.key) ?? []), v]);
  return [...groups]
    .map(([key, list]) => {
      const [root, ...derived] = [...list].sort((a, b) => rank(a) - rank(b) || a.step - b.step);
      return { key, root: root as Violation, derived };
    })
    .sort((a, b) => rank(a.root) - rank(b.root) || a.root.step - b.root.step);
}
