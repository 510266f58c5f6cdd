import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { mergedLine, mergeSummaries } from './merge.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'durasim-merge-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const A = 'npx durasim replay reports/regressions/no-fsync/1e2694a9069e04ff.json --journal no-fsync';
const B = 'npx durasim replay reports/regressions/no-fsync/77aa00bb11cc22dd.json --journal no-fsync';

/** A shard's summary.json, as check writes it (what merge reads of it). */
function summary(name: string, fields: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ journal: 'no-fsync', seed: 5, runsExecuted: 1, elapsedMs: 100, verdict: 'safety', exitCode: 1, violations: [{ code: 'write-ahead' }], ...fields }));
  return file;
}

describe('merge', () => {
  test('two shards whose counterexamples shrank to the same regression: its replay command once, in the JSON and in the line', () => {
    const { merged } = mergeSummaries([summary('1', { shard: { index: 1, count: 2 }, replayCommand: A }), summary('2', { shard: { index: 2, count: 2 }, replayCommand: A })]);
    expect(merged.replayCommands).toEqual([A]);
    const line = mergedLine(merged);
    expect(line.split(A)).toHaveLength(2);
    expect(line).toBe(`merged 2 summaries (no-fsync; seed 5): 2 runs, exit 1 (safety, safety): write-ahead\n  replay: ${A}`);
  });

  test('every distinct replay is printed once, a tally\'s counterexamples among them', () => {
    const tally = { tally: { 'write-ahead': 3 }, replayCommand: A, counterexamples: [{ invariant: 'write-ahead', replayCommand: A }, { invariant: 'truthful-outcome', replayCommand: B }] };
    const { merged } = mergeSummaries([summary('1', tally), summary('2', { replayCommand: B })]);
    expect(merged.replayCommands).toEqual([A, B]);
    expect(mergedLine(merged).split('\n').slice(1)).toEqual([`  replay: ${A}`, `  replay: ${B}`]);
  });

  test('a shard a signal stopped is merged: never clean, but a finding of another shard comes first', () => {
    const clean = summary('1', { shard: { index: 1, count: 2 }, verdict: 'clean', exitCode: 0, violations: [] });
    const stopped = summary('2', { shard: { index: 2, count: 2 }, verdict: 'clean', exitCode: 130, violations: [], interrupted: { afterRuns: 40, ofRuns: 500, signal: 'SIGINT' } });
    const { merged, exitCode } = mergeSummaries([clean, stopped]);
    expect(exitCode).toBe(130);
    expect(mergedLine(merged)).toBe('merged 2 summaries (no-fsync; seed 5): 2 runs, exit 130 (clean, clean), interrupted: 2/2');
    expect(mergeSummaries([stopped, summary('3', { replayCommand: A })]).exitCode).toBe(1);
  });

  test("the shards' single-fault sweeps add up; complete only when every shard of the split swept its share whole", () => {
    const sweep = (states: number, explored: number, of: number, complete: boolean) => ({ sweep: { states, runs: states + 1, points: { explored, of }, complete, ms: 10, cpuMs: 10 } });
    const clean = { verdict: 'clean', exitCode: 0, violations: [] };
    const both = mergeSummaries([summary('1', { ...clean, shard: { index: 1, count: 2 }, ...sweep(100, 40, 40, true) }), summary('2', { ...clean, shard: { index: 2, count: 2 }, ...sweep(90, 38, 38, true) })]).merged;
    expect(both.sweep).toEqual({ states: 190, runs: 192, points: { explored: 78, of: 78 }, complete: true });
    expect(mergedLine(both)).toBe('merged 2 summaries (no-fsync; seed 5): 2 runs, single-fault sweep: 190 states at 78 of 78 crash points, complete, exit 0 (clean, clean)');
    // One shard of two: half the crash points were never swept.
    const half = mergeSummaries([summary('1', { ...clean, shard: { index: 1, count: 2 }, ...sweep(100, 40, 40, true) })]).merged;
    expect(half.sweep).toMatchObject({ complete: false });
    // A shard whose sweep stopped short (a failure, the budget, a signal).
    const short = mergeSummaries([summary('1', { ...clean, shard: { index: 1, count: 2 }, ...sweep(100, 40, 40, true) }), summary('2', { shard: { index: 2, count: 2 }, ...sweep(10, 4, 38, false) })]).merged;
    expect(short.sweep).toEqual({ states: 110, runs: 112, points: { explored: 44, of: 78 }, complete: false });
    // Each shard's two-fault pairs (of its share of the states) add up, and the line says them.
    const pairs = (tried: number, kept: number) => ({ pairs: { total: kept * 3, kept, partial: false, tried, runs: tried * 10, ms: 10, cpuMs: 10, complete: false } });
    const withPairs = mergeSummaries([summary('1', { ...clean, shard: { index: 1, count: 2 }, sweep: { ...sweep(100, 40, 40, true).sweep, ...pairs(8, 100) } }), summary('2', { ...clean, shard: { index: 2, count: 2 }, sweep: { ...sweep(90, 38, 38, true).sweep, ...pairs(16, 90) } })]).merged;
    expect(withPairs.sweep).toEqual({ states: 190, runs: 192, points: { explored: 78, of: 78 }, complete: true, pairs: { total: 570, kept: 190, tried: 24, runs: 240 } });
    expect(mergedLine(withPairs)).toBe('merged 2 summaries (no-fsync; seed 5): 2 runs, single-fault sweep: 190 states at 78 of 78 crash points, complete, two-fault pairs: 24 of 190 kept tried in 240 runs, exit 0 (clean, clean)');
    expect(mergedLine(short)).toContain('single-fault sweep: 110 states at 44 of 78 crash points, not complete, exit 1');
    // A shard run with --no-sweep leaves its share unswept.
    const noSweep = mergeSummaries([summary('1', { ...clean, shard: { index: 1, count: 2 }, ...sweep(100, 40, 40, true) }), summary('2', { ...clean, shard: { index: 2, count: 2 } })]).merged;
    expect(noSweep.sweep).toMatchObject({ complete: false });
    // An unsharded check's whole sweep.
    expect(mergeSummaries([summary('1', { ...clean, ...sweep(5, 4, 4, true) })]).merged.sweep).toMatchObject({ complete: true });
  });

  test('clean shards: no replay', () => {
    const { merged } = mergeSummaries([summary('1', { verdict: 'clean', exitCode: 0, violations: [] })]);
    expect(merged.replayCommands).toEqual([]);
    expect(mergedLine(merged)).toBe('merged 1 summary (no-fsync; seed 5): 1 runs, exit 0 (clean)');
  });
});
