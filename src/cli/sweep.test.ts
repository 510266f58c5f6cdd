/**
 * check's single-fault sweep (issue 52 item 1, on by default; --no-sweep leaves it out): every single-fault state of the task's fault-free
 * run is judged before the drawn runs, so a defect that one fault at one step reveals is found by
 * construction, whatever the seed draws; the summary says the states judged, at how many of the
 * fault-free run's crash points, and the runs and seconds it cost.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import { main } from './main.js';

let dir = '';
let out: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-sweep-'));
  out = [];
});
const run = (...argv: string[]) => main(argv, (line) => out.push(line));
// --no-real-restart: a clean verdict's real restarts are not what this file tests, and each costs real processes (keptMemory.test and realRestart.test are theirs).
const common = () => ['--runs', '1', '--seed', '1', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', '--no-real-restart'];
const summary = () => JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as { runsExecuted: number; sweep?: { states: number; points: { explored: number; of: number }; runs: number; ms: number; cpuMs: number; complete: boolean; stoppedBy?: string } };
const SWEEP_LINE = /^single-fault sweep: (\d+) states judged at (.+) in (\d+) runs, \d+\.\d s \(\d+\.\d s CPU\)$/;

describe("check's single-fault sweep", () => {
  // Two built-in mutants the drawn runs find late (reports/mutants.md: 147 and 103 runs), each with a one-fault hand-minimal scenario:
  // a 503's wait ignored (a failure-class answer at one request), a cancel looked at only at the start (a user's cancel at one step).
  // Each on a task of one publish (its sweep 88 crash points, the standard task's 262): the sweep stops at the first failing state,
  // 262 and 213 runs in (369 and 303 before crash points that cannot differ were swept once: sameCrashStates.ts).
  test.each([
    ['ignores-retry-after', 'none', 'failure at a POST step', 'failure-class-respected'],
    ['cancel-checked-at-start', 'cancel', 'user at a ', 'no-effect-after-cancel'],
  ])('%s: one fault at one step, found by the default sweep before any drawn run; one drawn run of the same seed alone finds nothing', async (journal, features, where, code) => {
    const task = ['--operations', 'publish', '--features', features];
    expect(await run('check', '--journal', journal, ...task, '--no-sweep', ...common())).toBe(0);
    out = [];
    expect(await run('check', '--journal', journal, ...task, ...common())).toBe(1);
    expect(out[0]).toContain(` · journal ${journal} · operations publish · features ${features} · 1 run · single-fault sweep and two-fault pairs first · 1 worker`);
    const line = out.find((l) => l.startsWith('single-fault sweep: ')) ?? '';
    expect(line).toMatch(SWEEP_LINE);
    expect(line).toMatch(/ judged at \d+ of the fault-free run's \d+ crash points \(stopped at the first failing state\) in /);
    expect(out).toContainEqual(expect.stringMatching(new RegExp(`^found by the single-fault sweep: ${where}`)));
    expect(out.join('\n')).toMatch(new RegExp(`^ {2}${code} \\[`, 'm'));
    // No drawn run was made: the sweep's runs are its own, apart from the budget's.
    expect(out).toContainEqual(expect.stringMatching(/^0 runs in /));
    const sweep = summary().sweep;
    expect(sweep?.complete).toBe(false);
    expect(sweep?.stoppedBy).toBe('stopped at the first failing state');
    expect(sweep?.points.explored).toBeLessThan(sweep?.points.of ?? 0);
    expect(sweep?.runs).toBeGreaterThanOrEqual(sweep?.states ?? Number.POSITIVE_INFINITY);
    expect(line).toContain(`${sweep?.states} states judged at ${sweep?.points.explored} of the fault-free run's ${sweep?.points.of} crash points`);
  });

  test('crash states are tried once where crash points cannot differ (src/runner/sameCrashStates.ts): a mutant one machine crash at an append reveals is still found by the sweep, and the WAL/NORMAL SQLite journal by its fault-free run', async () => {
    expect(await run('check', '--journal', 'retry-unsafe-write', ...common(), '--no-sweep')).toBe(0);
    out = [];
    expect(await run('check', '--journal', 'retry-unsafe-write', ...common())).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/^found by the single-fault sweep: disk at an append step \(fh\.appendFile journal\.jsonl /));
    expect(out.join('\n')).toMatch(/^ {2}retry-safe-only \[post-a\]/m);
    out = [];
    expect(await run('check', '--journal', join(import.meta.dirname, '../../examples/libraries/better-sqlite3/wal-normal.ts'), ...common())).toBe(1);
    expect(out).toContainEqual('found by the single-fault sweep: the fault-free run');
    expect(out.join('\n')).toMatch(/^ {2}write-ahead \[post-a\] .*journal\.db-wal: \d+ unsynced bytes lost/m);
  });

  test("I/O errors at SQLite's VFS steps (stepKind.ts): the WAL/FULL journal, clean without them, is found by an EIO at its WAL's fsync", async () => {
    expect(await run('check', '--journal', join(import.meta.dirname, '../../examples/libraries/better-sqlite3/wal-full.ts'), '--faults', 'io', '--no-pairs', ...common())).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/^found by the single-fault sweep: io at a fsync step \(sqlite\.xSync journal\.db-wal\)$/));
    expect(out.join('\n')).toMatch(/^ {2}write-ahead \[post-a\] .*journal\.db-wal: \d+ unsynced bytes lost/m);
  });

  test("a clean journal's sweep covers every crash point of its fault-free run and says so, with its runs and seconds; the drawn runs follow", async () => {
    // The two-fault pairs after it are pairs.test's: left out here (565 runs).
    expect(await run('check', '--journal', 'reference', '--operations', 'publish', '--features', 'none', '--no-pairs', ...common())).toBe(0);
    expect(out[0]).toContain(' · 1 run · single-fault sweep first · no two-fault pairs · 1 worker');
    const line = out.find((l) => l.startsWith('single-fault sweep: ')) ?? '';
    const sweep = summary().sweep;
    expect(sweep?.complete).toBe(true);
    expect(sweep?.points.explored).toBe(sweep?.points.of);
    expect(sweep?.states).toBeGreaterThan(sweep?.points.of ?? Number.POSITIVE_INFINITY);
    expect(line).toMatch(SWEEP_LINE);
    expect(line).toContain(`single-fault sweep: ${sweep?.states} states judged at every one of the fault-free run's ${sweep?.points.of} crash points in ${sweep?.runs} runs, `);
    expect(summary().runsExecuted).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/^1 run in .*: clean$/));
  });

  test('a journal whose fault-free run fails: that run is the finding, and the line says no fault was tried', async () => {
    expect(await run('check', '--journal', 'no-fsync', ...common())).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/^single-fault sweep: 0 states judged at 0 of the fault-free run's 0 crash points \(the fault-free run itself fails: no fault was tried\) in 1 run, \d+\.\d s \(\d+\.\d s CPU\)$/));
    expect(out).toContain('found by the single-fault sweep: the fault-free run');
    expect(out.join('\n')).toMatch(/^ {2}write-ahead \[/m);
  });

  test('--sweep-runs bounds the sweep: cut short where the bound fell, the line says which bound and how to raise it, and the drawn runs follow', async () => {
    expect(await run('check', '--journal', 'reference', '--sweep-runs', '20', '--no-pairs', ...common())).toBe(0);
    const line = out.find((l) => l.startsWith('single-fault sweep: ')) ?? '';
    expect(line).toMatch(SWEEP_LINE);
    expect(line).toMatch(/ judged at \d+ of the fault-free run's 262 crash points \(cut short at its bound of 20 runs: --sweep-runs N raises it\) in \d+ runs, /);
    const sweep = summary().sweep;
    expect(sweep?.complete).toBe(false);
    // It stops at the first batch boundary at or past the bound: a batch is 8 crash points.
    expect(sweep?.runs).toBeGreaterThanOrEqual(20);
    expect(sweep?.points.explored).toBeLessThan(sweep?.points.of ?? 0);
    expect(summary().runsExecuted).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/^1 run in .*: clean$/));
  });

  test('--no-sweep leaves it out: the first line says so; no sweep line, nothing in summary.json', async () => {
    expect(await run('check', '--journal', 'reference', '--operations', 'publish', '--features', 'none', '--no-sweep', ...common())).toBe(0);
    expect(out[0]).toContain(' · 1 run · no single-fault sweep · 1 worker');
    expect(out.some((l) => l.startsWith('single-fault sweep'))).toBe(false);
    expect(summary().sweep).toBeUndefined();
  });
});
