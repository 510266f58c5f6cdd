/**
 * Ctrl-C and SIGTERM keep a check's work: real signals to a real `durasim check` (and `explore`)
 * mid-run, sent when its progress line says it is under way (never after a time), to the node
 * process itself and through `npx durasim`, whose npm hands them to the `sh -c` it runs durasim in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { baseScenario } from '../arbitraries.js';
import { Interrupt } from './interrupt.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin', 'durasim.mjs');
const dir = mkdtempSync(join(tmpdir(), 'durasim-interrupt-'));
// A journal whose every run() holds its thread for LOOPS turns of a loop (the simulation serves every
// wait, Atomics.wait among them, in virtual time: only work takes real time), and sends nothing.
const slow = join(dir, 'slow.mjs');
writeFileSync(slow, `const loops = Number(process.env.LOOPS ?? '0');
export default { name: 'slow', async run() { let x = 0; for (let i = 0; i < loops; i++) x = (x * 31 + i) | 0; if (x === 42) console.log(x); }, inspect() { return {}; } };
`);

interface Running {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  text: () => string;
  /** Resolves once its output matches. */
  printed: (pattern: RegExp) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string, args: readonly string[], options: { detached?: boolean } = {}): Running {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' }, detached: options.detached === true });
  let text = '';
  const waiting: { pattern: RegExp; resolve: () => void }[] = [];
  const onData = (chunk: Buffer): void => {
    text += chunk.toString('utf8');
    for (const w of waiting.splice(0)) {
      if (w.pattern.test(text)) w.resolve();
      else waiting.push(w);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  return {
    child,
    text: () => text,
    printed: (pattern) => (pattern.test(text) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ pattern, resolve }))),
    exited,
  };
}

/** The runs of a check of the reference journal: its progress line comes at a tenth (50), and 450 runs are left when the signal comes. */
const RUNS = 500;
/** A check of the reference journal (RUNS runs), its reports in a folder of its own. */
function checkArgs(name: string): string[] {
  return ['check', '--no-sweep', '--runs', String(RUNS), '--seed', '1', '--workers', '1', '--report-dir', join(dir, name), '--regressions', join(dir, `${name}-regressions`)];
}

/** A check of the slow journal (10 runs unless told): each run holds its thread about a second (2e8 turns unless told), so the runs under way outlast what a test does next by far. */
function slowArgs(name: string, runs = 10, loops = 200_000_000): string[] {
  return ['check', '--no-sweep', '--journal', slow, '--env', `LOOPS=${loops}`, '--runs', String(runs), '--seed', '1', '--invariants', 'write-ahead', '--workers', '1', '--hang-timeout', '300s', '--report-dir', join(dir, name), '--regressions', join(dir, `${name}-regressions`)];
}

const summaryOf = (name: string): { interrupted?: { afterRuns: number; ofRuns: number; signal: string }; exitCode: number; verdict: string } => JSON.parse(readFileSync(join(dir, name, 'summary.json'), 'utf8'));

describe('a signal to durasim check', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    test(`${signal} mid-run: no more runs, the reports written and marked "interrupted after N of M runs", exit ${code}`, async () => {
      const name = `once-${signal}`;
      const check = start(process.execPath, [BIN, ...checkArgs(name)]);
      await check.printed(/^progress: /m);
      check.child.kill(signal);
      const { code: exit } = await check.exited;
      expect(exit, check.text()).toBe(code);
      const summary = summaryOf(name);
      expect(summary.interrupted).toMatchObject({ ofRuns: RUNS, signal });
      const after = summary.interrupted?.afterRuns ?? 0;
      expect(after).toBeGreaterThanOrEqual(RUNS / 10);
      expect(after).toBeLessThan(RUNS);
      expect(summary.exitCode).toBe(code);
      expect(check.text()).toContain(`interrupted after ${after} of ${RUNS} runs (${signal}): the verdict is of the runs made`);
      expect(check.text()).toMatch(new RegExp(`^invariants {2}28 held \\(28 judged\\) · exit ${code} \\((interrupted|terminated)\\)$`, 'm'));
      expect(readFileSync(join(dir, name, 'report.md'), 'utf8')).toContain(`- interrupted after ${after} of ${RUNS} runs (${signal})`);
    });
  }

  test('SIGINT during the single-fault sweep (the default check): no drawn run is started, the sweep says it was stopped, the reports are written, exit 130', async () => {
    const name = 'sweep-SIGINT';
    const check = start(process.execPath, [BIN, ...checkArgs(name).filter((arg) => arg !== '--no-sweep')]);
    await check.printed(/^progress: single-fault sweep: \d+\/\d+ crash points/m);
    check.child.kill('SIGINT');
    const { code } = await check.exited;
    expect(code, check.text()).toBe(130);
    const summary = summaryOf(name) as ReturnType<typeof summaryOf> & { runsExecuted: number; sweep?: { complete: boolean; stoppedBy?: string; points: { explored: number; of: number } } };
    expect(summary.interrupted).toMatchObject({ afterRuns: 0, ofRuns: RUNS, signal: 'SIGINT' });
    expect(summary.runsExecuted).toBe(0);
    expect(summary.sweep).toMatchObject({ complete: false, stoppedBy: 'stopped by the time budget or the interrupt' });
    expect(summary.sweep?.points.explored).toBeLessThan(summary.sweep?.points.of ?? 0);
    expect(check.text()).toMatch(/^single-fault sweep: \d+ states judged at \d+ of the fault-free run's \d+ crash points \(stopped by the time budget or the interrupt\) in \d+ runs, /m);
  });

  test('SIGINT during the two-fault pairs: the sweep whole, no drawn run started, the pairs say they were stopped, the reports are written, exit 130', async () => {
    const name = 'pairs-SIGINT';
    // One publish, no features, crashes alone: its sweep is 89 runs at 88 crash points; the pairs' first progress line comes at a
    // tenth of their bound (100 runs), which is still 900 runs past what the signal leaves them.
    const args = [...checkArgs(name).filter((arg) => arg !== '--no-sweep'), '--operations', 'publish', '--features', 'none', '--faults', 'crash', '--pair-runs', '1000'];
    const check = start(process.execPath, [BIN, ...args]);
    // (A check that never reaches the pairs ends on its own: its exit, not a hang, then fails the test.)
    await Promise.race([check.printed(/^progress: two-fault pairs: \d+\/\d+ tried in \d+ runs/m), check.exited]);
    expect(check.text()).toMatch(/^progress: two-fault pairs: /m);
    check.child.kill('SIGINT');
    const { code } = await check.exited;
    expect(code, check.text()).toBe(130);
    const summary = summaryOf(name) as ReturnType<typeof summaryOf> & { runsExecuted: number; sweep?: { complete: boolean; pairs?: { complete: boolean; stoppedBy?: string; tried: number; kept: number; runs: number } } };
    expect(summary.interrupted).toMatchObject({ afterRuns: 0, ofRuns: RUNS, signal: 'SIGINT' });
    expect(summary.runsExecuted).toBe(0);
    expect(summary.sweep?.complete).toBe(true);
    expect(summary.sweep?.pairs).toMatchObject({ complete: false, stoppedBy: 'stopped by the time budget or the interrupt' });
    expect(summary.sweep?.pairs?.tried).toBeLessThan(summary.sweep?.pairs?.kept ?? 0);
    expect(summary.sweep?.pairs?.runs).toBeLessThan(1000);
    expect(check.text()).toMatch(/^two-fault pairs: \d+ of the \d+ pairs kept by dependency \(of \d+\) tried in \d+ runs, .* — stopped by the time budget or the interrupt$/m);
  });

  test('a second signal exits at once, with the first one\'s code, and writes no summary', async () => {
    const name = 'twice';
    const check = start(process.execPath, [BIN, ...slowArgs(name)]);
    await check.printed(/^progress: /m);
    check.child.kill('SIGINT');
    await check.printed(/^SIGINT: no more runs are started/m);
    check.child.kill('SIGTERM');
    const { code } = await check.exited;
    expect(code, check.text()).toBe(130);
    expect(check.text()).toContain('SIGTERM again: stopping at once, without writing the reports');
    expect(existsSync(join(dir, name, 'summary.json'))).toBe(false);
  });
  test('a signal once every run is drawn: the runs no worker has begun are never started', async () => {
    // 6 runs on one worker are all drawn at once (a check keeps 8 per worker out), so the check only waits for them when the
    // signal comes. At "1/6", the worker runs the second and holds the third; the other three are taken back (all ran before).
    const name = 'last-window';
    const check = start(process.execPath, [BIN, ...slowArgs(name, 6, 100_000_000)]); // half a second a run: two of them outlast the signal's way
    await check.printed(/^progress: 1\/6 runs/m);
    check.child.kill('SIGINT');
    const { code } = await check.exited;
    expect(code, check.text()).toBe(130);
    const after = summaryOf(name).interrupted?.afterRuns ?? 6;
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThan(6); // 3 at once; 4 or 5 when one or two more had ended before the signal came (a busy machine); 6 before the fix
    expect(check.text()).toContain(`interrupted after ${after} of 6 runs (SIGINT)`);
  });
});

describe('a signal to `npx durasim check` (npm, then sh -c, then node)', () => {
  test('SIGINT to npx alone (kill, a CI runner): the check stops and keeps its work; npm ends by the signal', async () => {
    const name = 'npx-SIGINT';
    const check = start('npx', ['durasim', ...checkArgs(name)]);
    await check.printed(/^progress: /m);
    check.child.kill('SIGINT');
    const exit = await check.exited;
    expect(exit.signal ?? exit.code, check.text()).toBe(exit.signal === null ? 130 : 'SIGINT');
    expect(summaryOf(name).interrupted).toMatchObject({ ofRuns: RUNS, signal: 'SIGINT' });
    expect(check.text()).toMatch(new RegExp(`^interrupted after \\d+ of ${RUNS} runs \\(SIGINT\\)`, 'm'));
  });

  test('Ctrl-C (the whole process group: npm, its shell and durasim): one interrupt, not two, while the run under way ends', async () => {
    const name = 'npx-group';
    const check = start('npx', ['durasim', ...slowArgs(name)], { detached: true });
    await check.printed(/^progress: /m);
    process.kill(-(check.child.pid as number), 'SIGINT');
    await check.exited;
    expect(check.text()).not.toContain('again: stopping at once');
    expect(summaryOf(name).interrupted).toMatchObject({ ofRuns: 10, signal: 'SIGINT' });
  });

  test('SIGTERM to npx: npm and its shell end at once; durasim, left alone, stops as at SIGTERM and writes its reports', async () => {
    const name = 'npx-SIGTERM';
    const check = start('npx', ['durasim', ...checkArgs(name)]);
    await check.printed(/^progress: /m);
    check.child.kill('SIGTERM');
    await check.exited;
    // durasim outlives npm: its last line comes through the pipes it still holds.
    await check.printed(/^invariants .* · exit 143 \(terminated\)$/m);
    expect(summaryOf(name).interrupted).toMatchObject({ ofRuns: RUNS, signal: 'SIGTERM' });
  });
});

describe('a signal to durasim explore', () => {
  test('SIGINT mid-exploration: the batch under way ends, the coverage written and marked interrupted, exit 130', async () => {
    const report = join(dir, 'explore');
    // One publish: a short task whose exploration is still under way at its first progress line (its pairs follow).
    const base = join(dir, 'one-publish.json');
    writeFileSync(base, JSON.stringify(baseScenario([{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }])));
    const explore = start(process.execPath, [BIN, 'explore', base, '--journal', 'reference', '--depth', '2', '--workers', '1', '--report-dir', report, '--regressions', join(dir, 'explore-regressions')]);
    await explore.printed(/^progress: /m);
    explore.child.kill('SIGINT');
    const { code } = await explore.exited;
    expect(code, explore.text()).toBe(130);
    const coverage = JSON.parse(readFileSync(join(report, 'coverage.json'), 'utf8')) as { runs: number; interrupted?: { afterRuns: number; signal: string } };
    expect(coverage.interrupted).toEqual({ afterRuns: coverage.runs, signal: 'SIGINT' });
    expect(explore.text()).toContain(`interrupted after ${coverage.runs} runs (SIGINT)`);
  });
});

describe('Interrupt', () => {
  test('the first signal asks to stop; the second exits at once with the first one\'s code', () => {
    const exits: number[] = [];
    const said: string[] = [];
    const interrupt = new Interrupt((code) => exits.push(code), (line) => said.push(line));
    expect(interrupt.requested).toBe(false);
    interrupt.own('SIGTERM');
    expect([interrupt.requested, interrupt.exitCode, exits]).toEqual([true, 143, []]);
    interrupt.own('SIGINT');
    expect(exits).toEqual([143]);
    expect(said.at(-1)).toBe('SIGINT again: stopping at once, without writing the reports');
  });

  test("a signal the parent shell got just after one of this process's own is that one (Ctrl-C signals both); later, it is a second", () => {
    const exits: number[] = [];
    const interrupt = new Interrupt((code) => exits.push(code), () => {});
    interrupt.own('SIGINT', 10_000);
    interrupt.fromWrapper('SIGINT', 10_400);
    expect(exits).toEqual([]);
    interrupt.fromWrapper('SIGINT', 12_000);
    expect(exits).toEqual([130]);
    const alone = new Interrupt((code) => exits.push(code), () => {});
    alone.fromWrapper('SIGINT', 5_000);
    expect(alone.signal).toBe('SIGINT');
  });
});
