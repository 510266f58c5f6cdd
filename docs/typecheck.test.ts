/**
 * The whole repository type-checks (tsc --noEmit -p tsconfig.json, incrementally: strict, every source, test,
 * example and doc snippet). Part of `npm test`, in a test file of its own, so the compiler's
 * single-threaded work runs beside the other test files instead of before them all.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

describe('the repository', () => {
  test('type-checks: tsc --noEmit -p tsconfig.json reports nothing', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    // Incremental: what an earlier run checked and did not change since is not checked again (the record lives in node_modules/.cache).
    const run = spawnSync(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', join(ROOT, 'node_modules', '.cache', 'durasim', 'typecheck.tsbuildinfo')], { cwd: ROOT, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  });
});
