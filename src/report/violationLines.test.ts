import { describe, expect, test } from 'vitest';
import type { Violation } from '../../model/violation.js';
import { foldRepeats, violationLines } from './violationLines.js';

const v = (code: Violation['code'], key: string, step: number): Violation => ({ code, key, step, expected: 'e', actual: `a${step}`, evidence: {} });

describe('violation lines', () => {
  test('repeats of one invariant on one key fold into their first line, counted, with the last step', () => {
    const retried = [30, 41, 52, 63].map((step) => v('failure-class-respected', 'post-a', step));
    expect(violationLines([...retried, v('failure-class-respected', 'post-b', 70)])).toEqual([
      'failure-class-respected [post-a] at #30: expected e; actual a30 (and 3 more failure-class-respected [post-a], the last at #63)',
      'failure-class-respected [post-b] at #70: expected e; actual a70',
    ]);
  });

  test('what follows from a root cause folds the same way, under it; nothing folds across keys or invariants', () => {
    const lines = violationLines([v('write-ahead', 'post-a', 10), v('truthful-outcome', 'post-a', 20), v('truthful-outcome', 'post-a', 25), v('single-flight', 'post-a', 12)]);
    expect(lines[0]).toMatch(/^single-flight \[post-a\] at #12/); // the root cause, by the causes' rank
    expect(lines.filter((l) => l.startsWith('  ↳ truthful-outcome [post-a] at #20:'))).toHaveLength(1);
    expect(lines.find((l) => l.includes('truthful-outcome'))).toContain('(and 1 more truthful-outcome [post-a], the last at #25)');
    expect(lines).toHaveLength(3);
    expect(foldRepeats([v('write-ahead', 'a', 1), v('write-ahead', 'b', 2)]).map((f) => f.more)).toEqual([0, 0]);
  });
});
