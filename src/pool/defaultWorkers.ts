/**
 * How many worker threads a check searches with when --workers is not given: one for every
 * RUNS_PER_WORKER runs of its budget (its shard's share), at least one, at most the machine's cores.
 * A worker costs ~0.3 s of CPU to boot and ~2 s more over its first 1,000 runs while V8 compiles the
 * code it runs (docs/benchmark.md), so on a small budget another worker adds that and nothing else.
 * Measured on 2 cores, `check` of the reference journal, one worker against two (CPU / wall):
 * 5 runs 0.95 / 0.79 s against 1.38 / 0.87 s; 50 runs 1.45 / 1.12 s against 2.09 / 1.23 s (one is
 * better both ways); 300 runs 3.68 / 2.82 s against 4.93 / 2.73 s (two are faster, at a third more
 * CPU). 50 keeps every budget past 50 runs on as many workers as before (the cores, for the default
 * 1,000 on up to 20 cores), where a machine with idle cores may buy wall time with CPU. A finding is
 * shrunk on every core (hunt's shrinkWorkers): its candidates are tried that many at a time.
 * Results never depend on the count.
 */
import { availableParallelism } from 'node:os';

export const RUNS_PER_WORKER = 50;

export function defaultWorkers(runs: number, cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(cores, Math.ceil(runs / RUNS_PER_WORKER)));
}

/** A check's workers: `workers` when asked for, else defaultWorkers(runs) to search and every core to shrink a finding. */
export function checkWorkers(runs: number, workers: number | undefined, cores: number = availableParallelism()): { search: number; shrink: number } {
  return workers !== undefined ? { search: workers, shrink: workers } : { search: defaultWorkers(runs, cores), shrink: cores };
}
