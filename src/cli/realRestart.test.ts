import { describe, expect, test } from 'vitest';
import type { Violation } from '../../model/violation.js';
import { realOnly } from './realRestart.js';

const v = (code: Violation['code'], key: string): Violation => ({ code, key, step: 0, expected: '', actual: '', evidence: {} });

describe("a real restart's parting: real processes broke a safety invariant the simulation did not", () => {
  test('a safety violation only the real run has parts the worlds, whatever confirm labelled it (diverged too)', () => {
    expect(realOnly([v('write-ahead', 'post-b')], [])).toBe(true);
    expect(realOnly([v('write-ahead', 'post-b')], [v('write-ahead', 'post-a')])).toBe(true);
  });

  test('what both worlds broke, a liveness failure alone, or nothing is no parting', () => {
    expect(realOnly([v('write-ahead', 'post-b')], [v('write-ahead', 'post-b')])).toBe(false);
    expect(realOnly([v('convergence', '')], [])).toBe(false);
    expect(realOnly([], [])).toBe(false);
  });
});
