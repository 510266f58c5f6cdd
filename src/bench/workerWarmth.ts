/**
 * What a pool worker costs before it runs at its steady rate, read off the worker's own thread
 * (WorkerPool.threadCpuMs: /proc/thread-self/schedstat, so neither the main thread nor V8's helper
 * threads count): its boot — Node's bootstrap of a worker thread, durasim's module graph, the
 * guards, the reference journal's bundle — and its warm-up, the CPU its first `warmRuns` generated
 * runs (the reference journal, check's default families) take beyond its steady rate, measured over
 * the `steadyRuns` after them. Then a second worker is booted in the same process after the first
 * has gone, and warmed the same way: what every further worker pays again (a V8 isolate compiles
 * and optimizes everything afresh; the module compile cache, where Node has it, is what may carry
 * over: src/bin/graph.mjs).
 */
import { bundledJournal } from '../isolation/journalRef.js';
import { huntJournal } from '../mutation.js';
import { WorkerPool } from '../pool/workerPool.js';

export interface WorkerCost {
  /** CPU of the worker's thread until the journal was loaded in it, ms. */
  bootCpuMs: number;
  /** CPU of its first warmRuns runs, ms. */
  firstRunsCpuMs: number;
  /** firstRunsCpuMs less warmRuns at the first worker's steady rate. */
  warmUpCpuMs: number;
}

export interface WorkerWarmth {
  warmRuns: number;
  steadyRuns: number;
  /** The first worker's CPU a run past its first warmRuns, ms. */
  steadyCpuMsPerRun: number;
  workers: WorkerCost[];
  measured: boolean;
}

const cpuOf = async (pool: WorkerPool): Promise<number | undefined> => (await pool.threadCpuMs())[0];

export async function workerWarmth(options: { warmRuns: number; steadyRuns: number; seed: number }): Promise<WorkerWarmth> {
  const ref = bundledJournal('reference');
  if (!ref) throw new Error('the bench needs the bundled reference journal');
  const phases: { boot: number; warm: number; steady?: number }[] = [];
  for (const worker of [0, 1]) {
    const pool = new WorkerPool({ workers: 1, warm: false }); // a boot and a warm-up of its own, whatever the process asked (warmWorkers.ts)
    try {
      await pool.load(ref);
      const boot = (await cpuOf(pool)) ?? Number.NaN;
      await huntJournal(pool, ref, { numRuns: options.warmRuns, seed: options.seed, shrink: false });
      const warm = (await cpuOf(pool)) ?? Number.NaN;
      if (worker === 0) {
        await huntJournal(pool, ref, { numRuns: options.steadyRuns, seed: options.seed + 1, shrink: false });
        phases.push({ boot, warm, steady: (await cpuOf(pool)) ?? Number.NaN });
      } else phases.push({ boot, warm });
    } finally {
      await pool.close();
    }
  }
  const first = phases[0] as { boot: number; warm: number; steady: number };
  const steadyCpuMsPerRun = (first.steady - first.warm) / options.steadyRuns;
  const workers = phases.map((p) => ({ bootCpuMs: p.boot, firstRunsCpuMs: p.warm - p.boot, warmUpCpuMs: p.warm - p.boot - options.warmRuns * steadyCpuMsPerRun }));
  return { warmRuns: options.warmRuns, steadyRuns: options.steadyRuns, steadyCpuMsPerRun, workers, measured: phases.every((p) => Number.isFinite(p.boot)) };
}
