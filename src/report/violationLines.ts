/**
 * Violations as the command line and report.md print them, cause first: per key, the root cause,
 * and what follows from it indented under it. Repeats of one invariant on one key (a 400 retried
 * in a loop breaks the same rule at every send) fold into their first line, with how many more
 * and the step of the last: the data keeps every one.
 */
import { byCause } from '../../model/causes.js';
import { describeViolation, type Violation } from '../../model/violation.js';

export interface FoldedViolation {
  violation: Violation;
  /** Further violations of the same invariant on the same key. */
  more: number;
  lastStep: number;
}

/** Each violation once per invariant and key, in order: the first, with a count of the rest. */
export function foldRepeats(violations: readonly Violation[]): FoldedViolation[] {
  const out: FoldedViolation[] = [];
  const seen = new Map<string, FoldedViolation>();
  for (const violation of violations) {
    const id = `${violation.code}\u0000${violation.key}`;
    const known = seen.get(id);
    if (known) {
      known.more++;
      known.lastStep = Math.max(known.lastStep, violation.step);
      continue;
    }
    const folded = { violation, more: 0, lastStep: violation.step };
    seen.set(id, folded);
    out.push(folded);
  }
  return out;
}

/** A folded violation's text: the first, then how many more and where the last was. */
export function describeFolded(folded: FoldedViolation): string {
  const { violation, more, lastStep } = folded;
  return more === 0 ? describeViolation(violation) : `${describeViolation(violation)} (and ${more} more ${violation.code} [${violation.key}], the last at #${lastStep})`;
}

/** Per key, the root cause first and what follows from it, each invariant once. */
export function causeGroups(violations: readonly Violation[]): { root: FoldedViolation; derived: FoldedViolation[] }[] {
  return byCause(violations).map((group) => {
    const [root, ...derived] = foldRepeats([group.root, ...group.derived]);
    return { root: root as FoldedViolation, derived };
  });
}

export function violationLines(violations: readonly Violation[]): string[] {
  return causeGroups(violations).flatMap((group) => [describeFolded(group.root), ...group.derived.map((d) => `  ↳ ${describeFolded(d)}`)]);
}
