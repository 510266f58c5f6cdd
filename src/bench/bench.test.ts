import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { MUTANTS } from '../journals/mutants/index.js';
import { runBench } from './main.js';

describe('npm run bench (smoke: tiny counts, so it cannot rot; never a timing gate)', () => {
  test('measures every section and writes the report', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const out = join(mkdtempSync(join(tmpdir(), 'durasim-bench-')), 'bench.json');
    await runBench(['--quick', '--seconds', '0.2', '--memory-runs', '40', '--real', '1', '--out', out]);
    const report = JSON.parse(readFileSync(out, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(report)).toEqual(['node', 'cores', 'quick', 'throughputs', 'isolation', 'ambient', 'overhead', 'real', 'detection', 'exploreDepth1', 'memory', 'targets']);
    expect(report.throughputs).toMatchObject({ before: expect.any(Number), oneWorker: expect.any(Number), twoWorkers: expect.any(Number) });
    expect(report.throughputs?.oneWorker).toBeGreaterThan(0);
    expect(report.isolation?.ratio).toBeGreaterThan(0);
    expect(report.ambient?.ratio).toBeGreaterThan(0);
    // The ceiling: the journal's own work, and the scenarios per second it allows (1000 / floorMs); measured, never compared here.
    expect(report.overhead).toMatchObject({ bareMs: expect.any(Number), floorMs: expect.any(Number), simulatedMs: expect.any(Number) });
    expect(report.overhead?.floorMs).toBeGreaterThan(0);
    expect(report.overhead?.ceilingPerSecond).toBeCloseTo(1000 / (report.overhead?.floorMs as number), 6);
    expect(report.real?.runs).toEqual([expect.objectContaining({ effectsPerKeyOk: true, incarnations: 2 })]);
    // Detection is hunted with a tiny budget here, on every eighth mutant, unshrunk; kills are the mutant suite's gate.
    expect((report.detection as unknown as { mutant: string }[]).map((d) => d.mutant)).toEqual(MUTANTS.filter((_, i) => i % 8 === 0).map((m) => m.journal.name));
    expect(report.exploreDepth1).toMatchObject({ states: expect.any(Number), findings: 0 });
    expect(report.exploreDepth1?.states).toBeGreaterThan(report.exploreDepth1?.points as number);
    vi.restoreAllMocks();
  }, 120_000);
});
