/**
 * What the pool keeps of a run it was asked for (PendingRun) and of each worker thread (Slot): the
 * runs sent to it, its heartbeat, the journals it loaded, its memory and CPU as the watchdog reads them.
 */
import type { Worker } from 'node:worker_threads';
import type { GeneratedRun, RunRequest } from './protocol.js';
import type { RunOutcome } from './poolTypes.js';

export interface PendingRun {
  id: number;
  journalId: number;
  /** The scenario, or the numbers the worker draws it from. */
  scenario?: unknown;
  generate?: GeneratedRun;
  request: RunRequest;
  /** The caller's label for the run (explore: the run's index), for cancel. */
  tag: number;
  resolve: (outcome: RunOutcome) => void;
}

export interface Slot {
  worker: Worker;
  heartbeat: Int32Array;
  /** The module graph it was started with (loadedGraph.ts): a warm worker serves only a pool on the same one. */
  graphFile: string | undefined;
  loaded: Set<number>;
  /** Runs sent to this worker, the first being the one it runs now (a second waits, so the worker never idles). */
  sent: PendingRun[];
  runs: number;
  lastBeats: number;
  lastBeatAtMs: number;
  /** When the worker was started (the harness's clock): its boot is bounded by bootTimeoutMs. */
  startedAtMs: number;
  /** The worker thread's CPU time when the watchdog first looked after its last beat (undefined: not looked yet, or unreadable). */
  lastBeatCpuMs?: number;
  /** When the watchdog first saw the worker doing durasim's own work for a load (heartbeat.ts setOwnWork), while it does. */
  ownWorkSinceMs?: number;
  heapMb: number;
  exiting: boolean;
  /** Left warm when its pool closed (warmWorkers.ts): another pool may hold it now. */
  keptWarm?: boolean;
  /** The journal replaced a builtin this worker runs on: it is replaced once its run is done. */
  retire?: boolean;
  /** Callers waiting for the thread's CPU (threadCpuMs), in the order they asked. */
  cpuAsked: ((ms: number | undefined) => void)[];
  /** The journals it was sent to load and has not answered for: watched as a run is. */
  loading: number[];
}
