/**
 * Throughput as `durasim check` runs: the standard workload generated in the main thread, run in
 * the worker pool (fresh modules per incarnation, judged in the worker, determinism re-runs every
 * 50th run), for about `seconds` of wall time.
 */
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';
import { explore } from '../runner/explore.js';
import { standardWorkload } from './workload.js';

export async function poolThroughput(options: { workers: number; seconds: number; seed: number }): Promise<{ workers: number; runs: number; seconds: number; perSecond: number }> {
  const pool = new WorkerPool({ workers: options.workers });
  try {
    const loaded = await pool.load(journalRefOf('reference'));
    await explore({ pool, journalId: loaded.journalId, arbitrary: standardWorkload, seed: options.seed + 1, runs: 100 * options.workers }); // warm up
    const started = performance.now();
    const explored = await explore({ pool, journalId: loaded.journalId, arbitrary: standardWorkload, seed: options.seed, runs: 10_000_000, timeBudgetMs: options.seconds * 1000 });
    const seconds = (performance.now() - started) / 1000;
    if (explored.failure) throw new Error(`the reference journal failed run ${explored.failure.index} of seed ${options.seed}: ${explored.failure.verdict}`);
    return { workers: options.workers, runs: explored.runsExecuted, seconds, perSecond: explored.runsExecuted / seconds };
  } finally {
    await pool.close();
  }
}
