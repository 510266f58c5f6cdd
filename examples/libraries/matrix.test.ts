/**
 * The compatibility matrix in CI: every journal on a library (examples/libraries/<library>/) gets
 * the verdict the table states at the table's budget and seed — the invariant it breaks and the
 * durability step the judge names missing. One finding of each kind (a file never fsynced, a
 * rename whose folder was never fsynced) is confirmed here in real processes from their real
 * system calls; `npm run compatibility` confirms every row before it writes the doc.
 * docs/compatibility.md is the table, rendered.
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

  /** The rows confirmed in CI: one of each durability step missing. */
  const CONFIRMED_HERE = new Set(['jsonfile', 'write-file-atomic']);

  test.concurrent.each(LIBRARIES.map((c) => [c.library, c] as const))('%s: the verdict the table states', async (library, c) => {
    const result = await runRow(c, { confirm: CONFIRMED_HERE.has(library) });
    expect({ exit: result.exit, invariant: result.invariant, missing: result.missing }).toEqual({ exit: c.exit, invariant: c.invariant, missing: c.missing });
    if (CONFIRMED_HERE.has(library)) expect(result.confirm).toEqual({ exit: c.exit, verdict: 'verdict: confirmed — the same violations in real processes' });
  }, 180_000);
});
