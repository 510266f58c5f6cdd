/**
 * Violations as the command line prints them, cause first: per key, the root cause, and what
 * follows from it indented under it.
 */
import { byCause } from '../../model/causes.js';
import { describeViolation, type Violation } from '../../model/violation.js';

export function violationLines(violations: readonly Violation[]): string[] {
  return byCause(violations).flatMap((group) => [describeViolation(group.root), ...group.derived.map((d) => `  ↳ ${describeViolation(d)}`)]);
}
