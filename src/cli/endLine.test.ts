import { describe, expect, test } from 'vitest';
import type { Violation } from '../../model/violation.js';
import { endLine } from './endLine.js';

const violation = (code: Violation['code'], step: number): Violation => ({ code, key: 'post-a', step, expected: '', actual: '', evidence: {} });

describe("check's end line", () => {
  test('counts invariants failed and held, each once, over those judged', () => {
    expect(endLine({ violations: [violation('write-ahead', 3), violation('write-ahead', 9), violation('convergence', 20)], exitCode: 1 })).toBe('invariants  2 failed | 26 held (28 judged) · exit 1 (safety)');
    expect(endLine({ violations: [], exitCode: 0 })).toBe('invariants  28 held (28 judged) · exit 0 (clean)');
    expect(endLine({ violations: [], invariantsJudged: ['no-silent-overwrite'], exitCode: 0 })).toBe('invariants  1 held (1 judged) · exit 0 (clean)');
  });

  test('a tally counts every invariant it saw fail; a sandbox breach is said', () => {
    expect(endLine({ violations: [violation('write-ahead', 3)], tally: { 'write-ahead': 45, 'truthful-outcome': 23, sandbox: 1 }, exitCode: 1 })).toBe('invariants  2 failed | 26 held (28 judged) · exit 1 (safety)');
    expect(endLine({ violations: [], sandbox: 'Math.random', exitCode: 4 })).toBe('invariants  28 held (28 judged) · sandbox breached · exit 4 (sandbox)');
  });
});
