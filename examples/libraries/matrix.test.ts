/**
 * The compatibility matrix: docs/compatibility.md is the table, rendered, and what the table says
 * of its rows. The rows themselves — each library's check at its budget and seed, each finding
 * confirmed in real processes from its real system calls — run in CI as a stage of their own
 * (.ci/run: `npm run compatibility -- --verify`, about eight minutes on 2026-12-06; the clean and
 * two-worker better-sqlite3 rows without the sweep, 70 minutes with it), which fails on any row whose
 * verdict or confirmation is not the table's. (The suite ran three of them too — jsonfile,
 * write-file-atomic and better-sqlite3's WAL/NORMAL, ~19 s of a test process — until the suite had to
 * fit in five minutes; the stage runs them and every other row.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { main } from '../../src/cli/main.js';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LIBRARIES } from './matrix.js';
import { renderMatrix } from './matrixRun.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the compatibility matrix', () => {
  test('holds eight libraries, and docs/compatibility.md is the table, rendered', () => {
    expect(LIBRARIES.length).toBeGreaterThanOrEqual(8);
    expect(readFileSync(join(ROOT, 'docs', 'compatibility.md'), 'utf8')).toBe(renderMatrix(LIBRARIES));
  });

  test('a clean row checked without some of the default fault families says which, in its verdict', () => {
    const row = { library: 'better-sqlite3', journal: 'wal-full', use: 'x', runs: 500, seed: 1, exit: 0, why: 'y' } as const;
    const rowOf = (doc: string): string | undefined => doc.split('\n').find((line) => line.includes('(`wal-full.ts`)'));
    expect(rowOf(renderMatrix([{ ...row, faults: 'crash,disk,response,duplicate,user,service-restart,intent,store,failure,concurrent' }]))).toContain('| clean (500 runs, seed 1, without `io` faults) |');
    expect(rowOf(renderMatrix([{ ...row, faults: 'crash,disk,response,duplicate,user,service-restart,intent,store,failure' }]))).toContain('| clean (500 runs, seed 1, without `io`, `concurrent` faults) |');
    // Every default family named is the default: nothing to say.
    expect(rowOf(renderMatrix([{ ...row, faults: 'crash,disk,io,response,duplicate,user,service-restart,intent,store,failure,concurrent' }]))).toContain('| clean (500 runs, seed 1) |');
    expect(rowOf(renderMatrix([row]))).toContain('| clean (500 runs, seed 1) |');
  });

  test('a row checked without the single-fault sweep says so in its verdict and its command, and its check is given --no-sweep', () => {
    const row = { library: 'better-sqlite3', journal: 'wal-full', use: 'x', runs: 500, seed: 1, exit: 0, why: 'y', noSweep: 'too dear' } as const;
    const doc = renderMatrix([row]);
    expect(doc.split('\n').find((line) => line.includes('(`wal-full.ts`)'))).toContain('| clean (500 runs, seed 1; drawn runs only, no single-fault sweep: too dear) |');
    expect(doc).toContain('`npx durasim check --journal examples/libraries/better-sqlite3/wal-full.ts --runs 500 --seed 1 --no-sweep`');
    expect(renderMatrix([{ ...row, exit: 3, invariant: 'convergence' }])).toContain('| liveness: `convergence` (500 drawn runs, no single-fault sweep: too dear) |');
    // The rows that say it are the SQLite rows whose sweep the stage could not afford.
    expect(LIBRARIES.filter((c) => c.noSweep !== undefined).map((c) => c.journal ?? c.library)).toEqual(['better-sqlite3', 'wal-full', 'no-immediate']);
  });

  test('node-idempotency: its clean verdict is the middleware\'s — without onRequest and onResponse the same journal sends twice at once', async () => {
    const folder = join(ROOT, 'examples', 'libraries', 'node-idempotency');
    const source = readFileSync(join(folder, 'journal.ts'), 'utf8');
    const unguarded = source.replace(/^ {4}const stored = await idempotency\.onRequest\(request\);.*$/m, '    const stored = undefined as unknown;').replace(/^ {4}await idempotency\.onResponse\(.*$/m, '');
    expect(source.match(/^ {4}.*idempotency\.on(Request|Response)\(/gm)).toHaveLength(2);
    expect(unguarded.match(/^ {4}.*idempotency\.on(Request|Response)\(/gm)).toBeNull(); // both calls gone from the code: the copy is what it says
    const copy = join(folder, `.unguarded-${process.pid}.ts`); // beside the original: its imports resolve as the original's
    writeFileSync(copy, unguarded);
    try {
      const dir = mkdtempSync(join(tmpdir(), 'durasim-matrix-unguarded-'));
      const out: string[] = [];
      const code = await main(['check', '--no-sweep', '--journal', copy, '--faults', 'concurrent', '--runs', '100', '--seed', '1', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress'], (line) => out.push(line));
      expect(code, out.join('\n')).toBe(1);
      expect(out.join('\n')).toMatch(/single-flight \[post-[a-z]\] at #\d+: expected no second write of post-[a-z] while request #\d+ is in flight; actual request #\d+ from worker-0#0 arrived while request #\d+ from worker-0#0 was still waiting for its answer/);
    } finally {
      rmSync(copy, { force: true });
    }
  });
});
