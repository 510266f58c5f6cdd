/** The machine-crash shapes an exploration tries beyond lose-unsynced (crashExplorer.ts), where files had unsynced appends. */
import type { CrashFault } from '../../simulator/scenario/scenario.js';

export type Shape = Pick<CrashFault, 'mode' | 'tornKeepBytes' | 'tail' | 'keep'>;

/** The machine-crash shapes beyond lose-unsynced worth trying when files had unsynced appends (`unsynced`: count per path). */
export function tornShapes(unsynced: Readonly<Record<string, number>>, maxPerFileStates: number): Shape[] {
  const paths = Object.keys(unsynced).sort().filter((p) => (unsynced[p] ?? 0) > 0);
  if (paths.length === 0) return [];
  const shapes: Shape[] = [{ mode: 'torn-tail' }, { mode: 'torn-tail', tail: 'zeros' }, { mode: 'torn-tail', tail: 'garbage' }, { mode: 'torn-write' }];
  // Every per-file combination of kept prefixes but all-zero (that is lose-unsynced), fewest kept appends first.
  let combos: Record<string, number>[] = [{}];
  for (const path of paths) combos = combos.flatMap((c) => Array.from({ length: (unsynced[path] ?? 0) + 1 }, (_, n) => (n === 0 ? c : { ...c, [path]: n })));
  const total = (c: Record<string, number>): number => Object.values(c).reduce((a, b) => a + b, 0);
  combos = combos.filter((c) => total(c) > 0).sort((a, b) => total(a) - total(b)).slice(0, maxPerFileStates);
  return [...shapes, ...combos.map((keep) => ({ mode: 'per-file' as const, keep }))];
}
