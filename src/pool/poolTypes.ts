/** What the worker pool is given and gives back (workerPool.ts). */
import type { SimulationResult } from '../../simulator/simulate.js';
import type { Escape } from '../../simulator/sandbox/ambientGuard.js';
import type { BlockedAt } from './heartbeat.js';
import type { Rerun, RunSummary } from './protocol.js';

export interface PoolOptions {
  /** Worker threads (default: the machine's available parallelism). */
  workers?: number;
  /** The journal's memory limit per worker, MB (default 512). */
  maxHeapMb?: number;
  /** The thread's own CPU time a busy worker may spend without a heartbeat before it is terminated (default 5000 ms; hangRule.ts). */
  hangTimeoutMs?: number;
  /** Runs before a worker is replaced by a fresh one (default 50,000; the heap check recycles a worker that grows). */
  recycleAfterRuns?: number;
  /** Wall time a worker's boot may take before the pool ends as a boot that failed (default 120,000 ms; a boot takes well under a second). */
  bootTimeoutMs?: number;
  /**
   * Takes idle workers a closed pool of this process left warm, and leaves its own warm when it
   * closes (default: whether the process asked for it, keepWorkersWarm in warmWorkers.ts); false
   * boots a new worker for every slot and ends each at close (the bench measures a boot and a warm-up).
   */
  warm?: boolean;
  /** The workers' entry file (default src/pool/poolBoot.mjs): durasim's own tests start pools whose boot fails. */
  boot?: string;
}

export type RunOutcome =
  /** Taken off the queue before it ran (see cancel). */
  | { kind: 'cancelled' }
  | { kind: 'simulated'; summary: RunSummary; result?: SimulationResult; again?: { summary: RunSummary; result?: SimulationResult }; rerun?: Rerun }
  | { kind: 'journal-blocked'; at: BlockedAt; detail: string }
  | { kind: 'journal-out-of-memory'; detail: string }
  | { kind: 'harness-error'; message: string; stack?: string };

export interface LoadedJournal {
  journalId: number;
  name: string;
  /** Escapes made by the journal's module code at load (its top level). */
  loadEscapes: Escape[];
  /**
   * The module reads the world as it loads (a clock read, a random draw, a timer at its top level):
   * what it keeps is module state a restart renews, so every run loads it afresh at every incarnation.
   */
  freshModules: boolean;
}
