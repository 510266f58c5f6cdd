/** The name a mistyped one most likely meant: "Did you mean --runs?" for --runz. */

/** Edit distance (insertions, deletions, substitutions and swaps of neighbours each count 1). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate nearest to `typed`, when it is near enough to be a typo: within a third of its
 * length in edits (at least one), or one that starts with what was typed. Ties go to the first listed.
 */
export function closestName(typed: string, candidates: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  // Far longer than every candidate: none is near enough, nor starts with it (and a name of a megabyte would cost seconds of edit distances).
  if (candidates.every((name) => lower.length - name.length > Math.max(1, Math.floor(name.length / 3)))) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(lower, name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best && best.distance <= Math.max(1, Math.floor(best.name.length / 3))) return best.name;
  const prefixed = candidates.filter((name) => lower.length >= 2 && name.startsWith(lower));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}
