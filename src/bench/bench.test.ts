import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { MUTANTS } from '../journals/mutants/index.js';
import { nodeLine } from './benchRows.js';
import { runBench } from './main.js';

// A CI stage of its own (.ci/run: 'bench smoke', DURASIM_BENCH_SMOKE=1), not part of `npm test`: its
// real processes, worker pools and floor threads cost ~26 s of a test fork, and the bench is a
// measurement, never a gate. Run it with `DURASIM_BENCH_SMOKE=1 npx vitest run src/bench/bench.test.ts`.
describe.skipIf(process.env.DURASIM_BENCH_SMOKE !== '1')('npm run bench (smoke: tiny counts, so it cannot rot; never a timing gate)', () => {
  test('measures every section and writes the report', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const out = join(mkdtempSync(join(tmpdir(), 'durasim-bench-')), 'bench.json');
    await runBench(['--quick', '--runs', '10', '--memory-runs', '40', '--real', '1', '--out', out]);
    const rows = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
    // Its row is keyed by the line of the Node it ran on.
    expect(Object.keys(rows)).toEqual([String(nodeLine(process.version))]);
    const report = rows[String(nodeLine(process.version))] as Record<string, Record<string, unknown>>;
    expect(Object.keys(report)).toEqual(['node', 'line', 'cores', 'mode', 'quick', 'floor', 'floorThreads', 'check', 'ratio', 'workerWarmth', 'isolation', 'ambient', 'sqlite', 'exploreDepth1', 'detection', 'detectionTable', 'memory', 'real']);
    expect(report).toMatchObject({ node: process.version, mode: 'quick' });
    // A worker's boot and warm-up, read off its own thread: two workers, one after the other.
    expect(report.workerWarmth).toMatchObject({ warmRuns: 20, measured: true });
    const workers = report.workerWarmth?.workers as { bootCpuMs: number; firstRunsCpuMs: number }[];
    expect(workers).toHaveLength(2);
    for (const w of workers) expect(w.bootCpuMs).toBeGreaterThan(0);
    // The floor serves the same task the simulation takes: as many calls as simulated steps.
    expect(report.floor).toMatchObject({ calls: expect.any(Number), msPerRun: expect.any(Number) });
    expect(report.floor?.calls).toBe(report.floor?.simulatedSteps);
    // The machine's cap on scaling: the floor in two threads against one, both measured.
    expect(report.floorThreads).toMatchObject({ oneThreadPerSecond: expect.any(Number), twoThreadsPerSecond: expect.any(Number) });
    expect(report.floorThreads?.ratio).toBeCloseTo((report.floorThreads?.twoThreadsPerSecond as number) / (report.floorThreads?.oneThreadPerSecond as number), 6);
    // check as users run it: measured from its own report (cost and work), never compared here.
    const sources = report.check?.sources as Record<string, Record<string, unknown>>;
    expect(sources.short).toMatchObject({ exitCode: 0, runsExecuted: expect.any(Number), traceEntries: expect.any(Number), cpuMs: expect.any(Number) });
    expect(sources.long?.runsExecuted).toBeGreaterThan(sources.short?.runsExecuted as number);
    // Past the default budget is the difference of the two runs (tiny counts here: noise may even make it negative).
    const [short, long] = [sources.short as { cpuMs: number; traceEntries: number }, sources.long as { cpuMs: number; traceEntries: number }];
    expect(sources.marginal?.cpuUsPerEntry).toBeCloseTo(((long.cpuMs - short.cpuMs) * 1000) / (long.traceEntries - short.traceEntries), 6);
    expect(sources.scaling?.ratio).toBeGreaterThan(0);
    // A worker's warm-up: the default budget's CPU past the fixed cost and the steady rate; two workers' extra CPU for the same runs.
    const [shortRun, two] = [sources.short as { cpuMs: number; cpuMsBeforeFirstRun: number; runsExecuted: number }, sources.two as { cpuMs: number }];
    expect(sources.warmUpCpuMs).toBeCloseTo(shortRun.cpuMs - shortRun.cpuMsBeforeFirstRun - shortRun.runsExecuted * (sources.marginal?.cpuMsPerScenario as number), 6);
    expect(sources.twoWorkersExtraCpuMs).toBeCloseTo(two.cpuMs - long.cpuMs, 6);
    expect(report.ratio).toBeCloseTo((sources.marginal?.cpuUsPerEntry as number) / (report.floor?.usPerCall as number), 6);
    expect(report.isolation?.ratio).toBeGreaterThan(0);
    expect(report.ambient?.ratio).toBeGreaterThan(0);
    // The SQLite journal commits transactions in every scenario, and its ratio is its CPU over the file journal's.
    expect(report.sqlite?.commits).toBeGreaterThan(0);
    expect(report.sqlite?.ratio).toBeCloseTo((report.sqlite?.sqliteMs as number) / (report.sqlite?.fileMs as number), 6);
    expect(report.real?.runs).toEqual([expect.objectContaining({ effectsPerKeyOk: true, incarnations: 2 })]);
    // Detection is hunted with a tiny budget here, on every nineteenth mutant (two), unshrunk; kills are the mutant suite's gate.
    expect((report.detection as unknown as { mutant: string }[]).map((d) => d.mutant)).toEqual(MUTANTS.filter((_, i) => i % 19 === 0).map((m) => m.journal.name));
    expect(report.exploreDepth1).toMatchObject({ states: expect.any(Number), findings: 0 });
    expect(report.exploreDepth1?.states).toBeGreaterThan(report.exploreDepth1?.points as number);
    vi.restoreAllMocks();
  });

  // Its sections with --quick's tiny counts (CI runs --short itself on Node 22 and 24, .ci/run): the floor's 3,000 and 15,000 runs cost this test ~15 s.
  test("--short (CI's row on each Node line): the floor, check from the sources, a worker's boot and warm-up; its line's row written beside the others", async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const out = join(mkdtempSync(join(tmpdir(), 'durasim-bench-')), 'bench.json');
    writeFileSync(out, JSON.stringify({ '18': { node: 'v18.0.0' } }));
    await runBench(['--short', '--quick', '--runs', '10', '--out', out]);
    const rows = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(rows)).toEqual(['18', String(nodeLine(process.version))]);
    const report = rows[String(nodeLine(process.version))] as Record<string, unknown>;
    expect(Object.keys(report)).toEqual(['node', 'line', 'cores', 'mode', 'quick', 'floor', 'floorThreads', 'check', 'ratio', 'workerWarmth']);
    expect(report).toMatchObject({ mode: 'short', quick: true });
    expect(Object.keys(report.check as object)).toEqual(['sources']);
    // It says which Node it ran on, first.
    expect(lines[0]).toMatch(new RegExp(`^durasim bench · Node ${process.version.replaceAll('.', '\\.')} \\(line ${nodeLine(process.version)}\\) · `));
    expect(lines.join('\n')).toMatch(/\| a pool worker's boot: CPU of its own thread .* \| \d+ ms, then \d+ ms \| — \|/);
    vi.restoreAllMocks();
  });
});
