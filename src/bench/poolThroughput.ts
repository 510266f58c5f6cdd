/**
 * Throughput before and after the worker pool, measured in one run, in alternating rounds (the
 * machine is shared and noisy: the best round of each way is kept):
 * - before: generate, simulate and judge in the main thread, the journal's modules shared (how
 *   `durasim check` ran before the pool; the guard installed once);
 * - after: as `durasim check` runs now — generated in the main thread, run in the pool with 1 and
 *   with 2 workers, determinism and module-independence re-runs included.
 */
import { judge } from '../../model/judge.js';
import { installAmbientGuard, uninstallAmbientGuard } from '../../simulator/sandbox/ambientGuard.js';
import { simulate } from '../../simulator/simulate.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { referenceJournal } from '../journals/reference.js';
import { WorkerPool } from '../pool/workerPool.js';
import { explore } from '../runner/explore.js';
import { scenarioAt } from '../runner/scenarioSource.js';
import { standardWorkload } from './workload.js';

export interface Throughputs {
  rounds: number;
  roundSeconds: number;
  /** Scenarios per second, the best round of each. */
  before: number;
  oneWorker: number;
  twoWorkers: number;
}

const wallMs = (): number => performance.now(); // the bench's own clock

async function inProcess(seconds: number, seed: number): Promise<number> {
  const started = wallMs();
  let runs = 0;
  while (wallMs() - started < seconds * 1000) {
    judge(await simulate(referenceJournal, scenarioAt(standardWorkload, seed, runs).value));
    runs++;
  }
  return runs / ((wallMs() - started) / 1000);
}

async function inPool(pool: WorkerPool, journalId: number, seconds: number, seed: number): Promise<number> {
  const started = wallMs();
  const explored = await explore({ pool, journalId, arbitrary: standardWorkload, seed, runs: 10_000_000, timeBudgetMs: seconds * 1000 });
  if (explored.failure) throw new Error(`the reference journal failed run ${explored.failure.index} of seed ${seed}: ${explored.failure.verdict}`);
  return explored.runsExecuted / ((wallMs() - started) / 1000);
}

export async function compareThroughput(options: { rounds: number; roundSeconds: number; seed: number }): Promise<Throughputs> {
  const pools = [new WorkerPool({ workers: 1 }), new WorkerPool({ workers: 2 })];
  installAmbientGuard();
  try {
    const ids = [];
    for (const pool of pools) {
      const loaded = await pool.load(journalRefOf('reference'));
      ids.push(loaded.journalId);
      await inPool(pool, loaded.journalId, 0.5, options.seed + 1); // warm up
    }
    await inProcess(0.5, options.seed + 2);
    const best = { before: 0, oneWorker: 0, twoWorkers: 0 };
    for (let round = 0; round < options.rounds; round++) {
      const seed = options.seed + 10 * round;
      best.before = Math.max(best.before, await inProcess(options.roundSeconds, seed));
      best.oneWorker = Math.max(best.oneWorker, await inPool(pools[0] as WorkerPool, ids[0] as number, options.roundSeconds, seed));
      best.twoWorkers = Math.max(best.twoWorkers, await inPool(pools[1] as WorkerPool, ids[1] as number, options.roundSeconds, seed));
    }
    return { rounds: options.rounds, roundSeconds: options.roundSeconds, ...best };
  } finally {
    uninstallAmbientGuard();
    await Promise.all(pools.map((pool) => pool.close()));
  }
}
