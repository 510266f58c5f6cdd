/**
 * check's two-fault pairs (issue 52 item 3, on by default after the single-fault sweep; --no-pairs
 * leaves them out): explore --depth 2's pairs kept by dependency, in its pair order, on their own
 * bound (--pair-runs), before the drawn runs. A defect that needs two dependent faults is found
 * whatever the seed draws; the summary says the pairs tried of those kept, their runs and seconds.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { main } from './main.js';

let dir = '';
let out: string[] = [];
let err: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-pairs-'));
  out = [];
  err = [];
  vi.restoreAllMocks();
});
const run = (...argv: string[]) => main(argv, (line) => out.push(line));
// Each worker count its own regression folder: a finding saved by one would be replayed first by the next.
// --no-real-restart: a clean verdict's real restarts are not what this file tests, and each costs real processes (keptMemory.test and realRestart.test are theirs).
const common = (workers = '1') => ['--seed', '1', '--workers', workers, '--report-dir', join(dir, 'report'), '--regressions', join(dir, `regressions-${workers}`), '--no-progress', '--no-real-restart'];
interface Pairs { total: number; kept: number; partial: boolean; tried: number; runs: number; ms: number; cpuMs: number; complete: boolean; stoppedBy?: string }
const summary = () => JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')) as { runsExecuted: number; counterexampleFaults?: number; replayCommand?: string; sweep?: { runs: number; states: number; complete: boolean; pairs?: Pairs } };
const PAIRS_LINE = /^two-fault pairs: (every one of the|\d+ of the) \d+ pairs kept by dependency \(of \d+\) tried in \d+ runs, \d+\.\d s \(\d+\.\d s CPU\)( — .*)?$/;

/** pause-in-memory's hand-minimal task (reports/mutants/minimal/), its two faults dropped: two publishes. */
function twoPublishes(): string {
  const file = join(dir, 'task.json');
  const operations = [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }, { kind: 'publish', key: 'post-b', body: 'artifact b v1' }];
  writeFileSync(file, JSON.stringify({ format: 'durasim.scenario', version: 3, task: { id: 'task-1', operations }, faults: [] }));
  return file;
}

describe("check's two-fault pairs", () => {
  // pause-in-memory keeps a 403's pause in memory: a concurrent call and a revoked permission at the same POST, two faults on one key.
  // No single fault reveals it (its sweep is clean), nor do 20 drawn runs of seed 1; the pairs find it 342 runs in, before any drawn run.
  test('a defect that needs two dependent faults: missed by the sweep and 20 drawn runs alone, found by the default check\'s pairs, and said so', async () => {
    const task = twoPublishes();
    expect(await run('check', '--journal', 'pause-in-memory', '--task', task, '--runs', '20', '--no-pairs', ...common())).toBe(0);
    expect(summary().sweep?.complete).toBe(true);
    out = [];
    expect(await run('check', '--journal', 'pause-in-memory', '--task', task, '--runs', '20', ...common())).toBe(1);
    expect(out[0]).toContain(` · journal pause-in-memory · task ${task} · 20 runs · single-fault sweep and two-fault pairs first · 1 worker`);
    expect(out).toContainEqual(expect.stringMatching(/^single-fault sweep: \d+ states judged at every one of the fault-free run's \d+ crash points in \d+ runs, /));
    const line = out.find((l) => l.startsWith('two-fault pairs: ')) ?? '';
    expect(line).toMatch(PAIRS_LINE);
    const pairs = summary().sweep?.pairs;
    expect(pairs).toMatchObject({ complete: false, stoppedBy: 'stopped at the first failing pair', partial: false });
    expect(line).toBe(`two-fault pairs: ${pairs?.tried} of the ${pairs?.kept} pairs kept by dependency (of ${pairs?.total}) tried in ${pairs?.runs} runs, ${((pairs?.ms ?? 0) / 1000).toFixed(1)} s (${((pairs?.cpuMs ?? 0) / 1000).toFixed(1)} s CPU) — stopped at the first failing pair`);
    expect(pairs?.tried).toBeLessThan(pairs?.kept ?? 0);
    expect(pairs?.kept).toBeLessThan(pairs?.total ?? 0);
    expect(out).toContain('found by the two-fault pairs: concurrent at a POST step (fetch POST /operations/post-a), then failure at a POST step (fetch POST /operations/post-a)');
    expect(out.join('\n')).toMatch(/^ {2}failure-class-respected \[post-b\] .*: expected no further write after the permission was revoked/m);
    // No drawn run was made; the counterexample holds the two faults, with the command that replays it.
    expect(out).toContainEqual(expect.stringMatching(/^0 runs in /));
    expect(summary().runsExecuted).toBe(0);
    expect(summary().counterexampleFaults).toBe(2);
    const saved = JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8')) as { faults: { kind: string }[] };
    expect(saved.faults.map((f) => f.kind)).toEqual(['concurrent-call', 'response']);
    expect(out).toContainEqual(`replay: ${summary().replayCommand}`);
    expect(summary().replayCommand).toMatch(/^npx durasim replay .*\.json --journal pause-in-memory$/);
  });

  // The two families the defect needs alone (its sweep 47 runs, its pairs 4, where every family's take 604 and 342): what this
  // holds is that the workers change nothing, not which families find it.
  test('the pairs are a function of the task and the sweep, never of the workers: the same finding and pair counts with --workers 1 and 2', async () => {
    const task = twoPublishes();
    const seen = [];
    for (const workers of ['1', '2']) {
      out = [];
      expect(await run('check', '--journal', 'pause-in-memory', '--task', task, '--faults', 'concurrent,failure', '--runs', '20', ...common(workers))).toBe(1);
      const { sweep } = summary();
      const counterexample: unknown = JSON.parse(readFileSync(join(dir, 'report', 'counterexample.json'), 'utf8'));
      seen.push({ found: out.find((l) => l.startsWith('found by ')), sweep: { runs: sweep?.runs, states: sweep?.states }, pairs: { total: sweep?.pairs?.total, kept: sweep?.pairs?.kept, tried: sweep?.pairs?.tried, runs: sweep?.pairs?.runs }, counterexample });
    }
    expect(seen[0]?.found).toMatch(/^found by the two-fault pairs: /);
    expect(seen[1]).toEqual(seen[0]);
  });

  test("--no-pairs is the check before the pairs: the sweep, then the drawn runs; a clean journal's pairs say what they covered, cut at --pair-runs", async () => {
    // Crashes alone: a sweep of 89 runs where every family's takes 565; what this holds is the order and the bound, whatever the families.
    const shape = ['--journal', 'reference', '--operations', 'publish', '--features', 'none', '--faults', 'crash', '--runs', '5'];
    expect(await run('check', ...shape, '--no-pairs', ...common())).toBe(0);
    expect(out[0]).toContain(' · 5 runs · single-fault sweep first · no two-fault pairs · 1 worker');
    expect(out.some((l) => l.startsWith('two-fault pairs'))).toBe(false);
    const without = summary();
    expect(without.sweep?.complete).toBe(true);
    expect(without.sweep?.pairs).toBeUndefined();
    expect(without.runsExecuted).toBe(5);
    out = [];
    expect(await run('check', ...shape, '--pair-runs', '40', ...common())).toBe(0);
    const line = out.find((l) => l.startsWith('two-fault pairs: ')) ?? '';
    expect(line).toMatch(PAIRS_LINE);
    expect(line).toMatch(/ — cut short at their bound of 40 runs: --pair-runs N raises it$/);
    const withPairs = summary();
    // The same sweep, and the same drawn runs after it.
    expect({ runs: withPairs.sweep?.runs, states: withPairs.sweep?.states }).toEqual({ runs: without.sweep?.runs, states: without.sweep?.states });
    expect(withPairs.runsExecuted).toBe(5);
    expect(withPairs.sweep?.pairs).toMatchObject({ complete: false, stoppedBy: 'cut short at their bound of 40 runs: --pair-runs N raises it' });
    // A batch is 8 second points, each with every fault that lands there: the bound stops the next batch, not the one under way.
    expect(withPairs.sweep?.pairs?.runs).toBeGreaterThanOrEqual(40);
    expect(withPairs.sweep?.pairs?.tried).toBeGreaterThan(0);
  });

  test('--pair-runs with --no-pairs or --no-sweep is bad usage', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk));
      return true;
    });
    expect(await run('check', '--no-pairs', '--pair-runs', '100', ...common())).toBe(2);
    expect(err.join('')).toContain('Failed to read the command line: --pair-runs bounds the two-fault pairs, and --no-pairs leaves them out. Pass one of them');
    expect(await run('check', '--no-sweep', '--pair-runs', '100', ...common())).toBe(2);
    expect(err.join('')).toContain('Failed to read the command line: --pair-runs bounds the two-fault pairs, and --no-sweep leaves them out. Pass one of them');
  });
});
