/**
 * A report folder never shows a stale failure: check, explore and replay --report-dir remove every
 * report file of an earlier run they do not write themselves, before their summary lands.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

const ROOT = resolve(import.meta.dirname, '../..');
let dir = '';
let out: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-stale-'));
  out = [];
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.DURASIM_FAILPOINT;
});

const run = (...argv: string[]) => main(argv, (line) => out.push(line));
const report = (name: string): string => join(dir, 'report', name);
const inReport = (): string[] => readdirSync(join(dir, 'report')).sort();
// --no-real-restart: a clean verdict's real restarts are not what this file tests, and each costs real processes (keptMemory.test and realRestart.test are theirs).
const outputs = () => ['--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', '--no-real-restart'];
const failingCheck = async (): Promise<void> => {
  expect(await run('check', '--no-sweep', '--journal', 'send-before-dispatched', '--runs', '20', '--seed', '5', ...outputs())).toBe(1);
  expect(existsSync(report('counterexample.json')) && existsSync(report('timeline.html'))).toBe(true);
};

describe('a report folder never shows a stale failure', () => {
  test("a failing check, then a clean one into the same --report-dir: no counterexample.json or timeline.html is left, and the user's own file stays", async () => {
    await failingCheck();
    writeFileSync(report('notes.md'), 'mine');
    expect(await run('check', '--no-sweep', '--runs', '20', '--seed', '5', ...outputs())).toBe(0);
    expect(inReport()).toEqual(['junit.xml', 'notes.md', 'report.md', 'summary.json']);
    const summary = JSON.parse(readFileSync(report('summary.json'), 'utf8')) as { verdict: string; files: Record<string, string> };
    expect(summary.verdict).toBe('clean');
    expect(Object.keys(summary.files).sort()).toEqual(['junit', 'report']);
  });

  test("explore after a failing check leaves its coverage alone, none of the check's reports; a check after it leaves none of explore's", async () => {
    await failingCheck();
    const base = join(ROOT, 'reports/mutants/minimal/send-before-dispatched.json');
    expect(await run('explore', base, '--journal', 'reference', '--faults', 'crash', '--max-runs', '20', ...outputs())).toBe(0);
    expect(inReport()).toEqual(['coverage.json', 'coverage.md']);
    expect(await run('check', '--no-sweep', '--runs', '10', '--seed', '5', ...outputs())).toBe(0);
    expect(inReport()).toEqual(['junit.xml', 'report.md', 'summary.json']);
  });

  test("durasim's own failure after a clean check leaves the scenario to report, not the clean summary", async () => {
    expect(await run('check', '--no-sweep', '--runs', '10', '--seed', '1', ...outputs())).toBe(0);
    process.env.DURASIM_FAILPOINT = 'simulator-invariant';
    expect(await run('check', '--no-sweep', '--runs', '5', '--seed', '1', ...outputs())).toBe(5);
    expect(inReport()).toEqual(['harness-failure.json']);
  });

  test('a journal that escapes while it loads, after a failing check: exit 4, and the folder holds no earlier verdict', async () => {
    await failingCheck();
    const file = join(dir, 'loads-the-disk.ts');
    writeFileSync(file, "import { readFileSync } from 'node:fs';\nconst config = readFileSync('/etc/hostname', 'utf8');\nexport default { name: 'loads-the-disk', async run(env) { await env.clock.now(); }, inspect: () => ({ config }) };\n");
    expect(await run('check', '--no-sweep', '--journal', file, '--runs', '5', ...outputs())).toBe(4);
    expect(inReport()).toEqual([]);
  });

  test('replay --report-dir after an explore removes the coverage it did not measure', async () => {
    const base = join(ROOT, 'reports/mutants/minimal/send-before-dispatched.json');
    expect(await run('explore', base, '--journal', 'reference', '--faults', 'crash', '--max-runs', '20', ...outputs())).toBe(0);
    expect(await run('replay', base, '--journal', 'send-before-dispatched', '--workers', '1', '--report-dir', join(dir, 'report'))).toBe(1);
    expect(inReport()).toEqual(['counterexample.json', 'junit.xml', 'report.md', 'summary.json', 'timeline.html']);
  });
});
