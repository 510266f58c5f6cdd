import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { baseScenario, DEFAULT_FAULT_KINDS } from '../arbitraries.js';
import { main } from './main.js';

let dir = '';
let out: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-explore-'));
  out = [];
});
const run = (...argv: string[]) => main(argv, (line) => out.push(line));
const onePublish = (): string => {
  const file = join(dir, 'base.json');
  writeFileSync(file, JSON.stringify(baseScenario([{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }])));
  return file;
};
// One worker unless the test reads the count: what explore finds does not depend on it (src/pool/workerPool.test.ts), and on
// 2 cores, under vitest's two forks, a second worker adds its boot and warm-up and takes no wall time off.
// --no-real-restart: a clean verdict's real restarts are not what this file tests, and each costs real processes (keptMemory.test and realRestart.test are theirs).
const common = (workers = 1) => ['--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress', '--workers', String(workers), '--no-real-restart'];

describe('durasim explore', () => {
  test('a clean journal exits 0 with the coverage table printed and written', async () => {
    expect(await run('explore', onePublish(), '--journal', 'reference', ...common(2))).toBe(0);
    expect(out[0]).toMatch(/^explore · journal reference · base .*base\.json · depth 1 · 2 workers$/);
    // A row per step kind: points, states, none failing, then failing/tried per family, and no invariant broken.
    expect(out.some((l) => /^\| fsync +\| +\d+ \| +\d+ \| +0 \|( +(0\/\d+|—) \|)+ — +\|$/.test(l))).toBe(true);
    expect(out.find((l) => l.startsWith('| step kind'))?.split('|').map((c) => c.trim()).filter(Boolean)).toEqual(['step kind', 'crash points', 'states', 'failing', 'crash', 'disk', 'io', 'response', 'duplicate', 'user', 'service-restart', 'intent', 'failure', 'concurrent', 'invariants broken (states)']);
    expect(out.some((l) => l.startsWith('verdict: clean'))).toBe(true);
    const json = JSON.parse(readFileSync(join(dir, 'report', 'coverage.json'), 'utf8'));
    expect(json).toMatchObject({ command: 'explore', journal: 'reference', depth: 1, cutShort: false, faults: [...DEFAULT_FAULT_KINDS] });
    expect(json.states).toBeGreaterThan(50);
    expect(readFileSync(join(dir, 'report', 'coverage.md'), 'utf8')).toMatch(/^# Fault-window coverage: reference, depth 1\n\n\| step kind/);
  });

  test('a mutant exits 1, and each printed replay line runs as printed and fails the same way', async () => {
    expect(await run('explore', onePublish(), '--journal', 'short-write-ignored', ...common())).toBe(1);
    const replays = out.filter((l) => l.trimStart().startsWith('replay: npx durasim replay '));
    expect(replays.length).toBeGreaterThan(0);
    const argv = (replays[0] as string).trim().replace('replay: npx durasim ', '').split(' ');
    expect(existsSync(argv[1] as string)).toBe(true);
    out = [];
    expect(await run(...argv)).toBe(1);
  });

  test('--depth 2 says how many pairs dependency kept of how many, and what they cost; --all-pairs tries every pair and says so', async () => {
    const budget = ['--max-runs', '400']; // depth 1 takes 320 of them: 80 pair runs are enough to say what the pairs cost
    expect(await run('explore', onePublish(), '--journal', 'reference', '--depth', '2', ...budget, ...common())).toBe(0);
    expect(out[1]).toMatch(/^\d+ crash points at depth 1, \d+ distinct states judged \(.*\), \d+ runs in [\d.]+ s \([\d.]+ s CPU\) — cut short at --max-runs 400$/);
    const line = out.find((l) => l.startsWith('pairs'));
    const said = /^pairs by dependency: (\d+) kept of (\d+) \(same key (\d+), file (\d+), store entry 0, lease 0; --all-pairs for every one\), (\d+) tried in (\d+) runs, [\d.]+ s \([\d.]+ s CPU\)$/.exec(line ?? '');
    expect(said, line).not.toBeNull();
    const [kept, total, key, file, tried, runs] = said!.slice(1).map(Number) as number[];
    expect(kept).toBeLessThan(total!);
    expect(key! + file!).toBe(kept);
    expect(tried).toBeGreaterThan(0);
    const json = JSON.parse(readFileSync(join(dir, 'report', 'coverage.json'), 'utf8'));
    expect(json.pairs).toMatchObject({ all: false, kept, total, tried, runs, partial: false, byKind: { key, file, store: 0, lease: 0 } });
    expect(json.pairs.cpuMs).toEqual(expect.any(Number));
    expect(json.cpuMs).toBeGreaterThan(0);
    out = [];
    expect(await run('explore', onePublish(), '--journal', 'reference', '--depth', '2', '--all-pairs', ...budget, ...common())).toBe(0);
    expect(out.find((l) => l.startsWith('pairs'))).toMatch(/^pairs: all at least \d+ \(dependency would keep \d+: same key \d+, file \d+, store entry 0, lease 0\), \d+ tried in \d+ runs, [\d.]+ s \([\d.]+ s CPU\)$/);
    expect(JSON.parse(readFileSync(join(dir, 'report', 'coverage.json'), 'utf8')).pairs).toMatchObject({ all: true, partial: true });
  });

  test('--all-pairs without --depth 2 is bad usage', async () => {
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0);
    try {
      expect(await run('explore', '--all-pairs', ...common())).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(err.join('')).toContain('Failed to read the command line: --all-pairs goes with --depth 2: depth 1 tries one fault at a time. Run durasim explore --depth 2 --all-pairs.');
  });

  test('progress: a first line once the first batch is judged, however short the exploration (then one every 5 s)', async () => {
    const err: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0);
    try {
      expect(await run('explore', onePublish(), '--journal', 'reference', '--max-runs', '30', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-real-restart')).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(err.filter((l) => l.startsWith('progress: '))[0]).toMatch(/^progress: \d+ runs, \d+ states, 0 failing \([\d.]+\/s\)\n$/);
  });

  test('a depth other than 1 or 2 is bad usage', async () => {
    expect(await run('explore', '--depth', '3', ...common())).toBe(2);
  });
});
