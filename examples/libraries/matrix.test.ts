/**
 * The compatibility matrix: docs/compatibility.md is the table, rendered; one finding of each kind
 * (a file never fsynced, a rename whose folder was never fsynced) gets the verdict the table states
 * and is confirmed in real processes from their real system calls. Every row — each library's
 * check at its budget and seed, each finding confirmed — runs in CI as a job of its own (.ci/run:
 * `npm run compatibility -- --verify`, about a minute), apart from the five-minute test suite.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LIBRARIES } from './matrix.js';
import { renderMatrix, runRow } from './matrixRun.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the compatibility matrix', () => {
  test('holds eight libraries, and docs/compatibility.md is the table, rendered', () => {
    expect(LIBRARIES.length).toBeGreaterThanOrEqual(8);
    expect(readFileSync(join(ROOT, 'docs', 'compatibility.md'), 'utf8')).toBe(renderMatrix(LIBRARIES));
  });

  /** The rows run here: one of each durability step missing (all of them run in CI's compatibility job). */
  const HERE = LIBRARIES.filter((c) => c.library === 'jsonfile' || c.library === 'write-file-atomic');

  test.concurrent.each(HERE.map((c) => [c.library, c] as const))('%s: the verdict the table states, confirmed in real processes', async (_library, c) => {
    const result = await runRow(c);
    expect({ exit: result.exit, invariant: result.invariant, missing: result.missing }).toEqual({ exit: c.exit, invariant: c.invariant, missing: c.missing });
    expect(result.confirm).toEqual({ exit: c.exit, verdict: 'verdict: confirmed — the same violations in real processes' });
  }, 180_000);
});
