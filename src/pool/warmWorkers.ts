/**
 * Warm workers: a pool that closes leaves its idle, healthy workers here, and the next pool of the
 * same process, with the same settings, takes them instead of booting new ones.
 *
 * - Why: a worker boots in ≈300 ms of CPU and then warms up its compiled code over its first runs
 *   (≈1.5 s of CPU over 1,000: docs/benchmark.md). A process that runs many checks — a test suite
 *   calling checkJournal, durasim's own tests — paid both once per check; now once per worker.
 * - Why it is safe: a run never depends on what its worker ran before. Every incarnation gets a
 *   fresh instance of the journal's modules with what journals left on the thread's shared objects
 *   put back (src/isolation/journalInstances.ts), as between two runs of one check; a worker whose
 *   builtins a journal replaced is never kept (it is retired), nor one that is busy, loading, past
 *   half its memory limit or at its run budget. A kept worker forgets every journal it loaded.
 * - Same settings: the same boot file, module graph and memory limit, and the same process.env (a
 *   worker's environment is a copy of it taken when it started): anything else boots a new worker.
 * - Why only where asked (keepWorkersWarm(), which durasim's own test suite calls: vitest.config.ts):
 *   the restore does not reach every place a journal could leave something (an object one property
 *   deeper than the shared ones, one behind a getter such as process.stdout: docs/adapters.md). Within
 *   a check that is one journal's runs; a warm worker would widen it to the next check's journal. A
 *   `durasim` command runs one check, and a program that calls checkJournal gets a new worker per
 *   check, as before.
 * - An idle warm worker never keeps the process alive (unreferenced); at most MAX_IDLE are kept,
 *   the longest idle ended first. A pool's `warm: false` (the bench measures a boot and a warm-up)
 *   starts new ones whatever was asked.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { isReady } from './heartbeat.js';
import type { Slot } from './poolSlot.js';
import type { ToWorker } from './protocol.js';

export interface WarmWorker {
  worker: Worker;
  heartbeat: Int32Array;
  /** Runs it has served so far, across pools (a pool recycles it at its recycleAfterRuns). */
  runs: number;
}

/** At most this many idle workers are kept, whatever their settings. */
export const MAX_IDLE = Math.max(2, availableParallelism());

const idle: { key: string; warm: WarmWorker; forget: () => void }[] = [];
let asked = false;

/** From now on, pools of this process keep their idle workers warm for the next one (until endWarmWorkers). */
export function keepWorkersWarm(): void {
  asked = true;
}

/** Whether this process asked for warm workers (keepWorkersWarm). */
export function workersKeptWarm(): boolean {
  return asked;
}

/** The settings a worker was started with: a warm worker serves only a pool whose key is the same. */
export function warmKey(settings: { boot: string; maxHeapMb: number; graphFile: string | undefined }): string {
  return JSON.stringify([settings.boot, settings.maxHeapMb, settings.graphFile ?? null, Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}

/** The stdio streams of kept workers that keepWarm ended (an ended stream is ended once, with one listener for what comes after). */
const streamsEnded = new WeakSet<object>();

/** Keeps an idle worker for the next pool with `key`; the worker was told to forget its journals. */
export function keepWarm(key: string, warm: WarmWorker): void {
  const { worker } = warm;
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  const entry = {
    key,
    warm,
    forget: () => {
      const index = idle.indexOf(entry);
      if (index !== -1) idle.splice(index, 1);
    },
  };
  // Gone while idle (it should not: nothing runs there): it is simply not handed out.
  worker.on('error', entry.forget);
  worker.on('exit', entry.forget);
  // Node refs a worker's internal port while its stdout or stderr is being read (stdout: true), and
  // worker.unref() leaves that port alone: ended here, the streams no longer hold the process. What the
  // thread writes there is dropped, as the pool dropped it (a journal's output is in its trace).
  for (const stream of [worker.stdout, worker.stderr]) {
    // Once per stream: one whose end is not emitted yet (not flowing) is kept again after its next pool.
    if (streamsEnded.has(stream) || stream.readableEnded || stream.destroyed) continue;
    streamsEnded.add(stream);
    stream.on('error', () => {});
    stream.push(null);
  }
  worker.unref();
  idle.push(entry);
  while (idle.length > MAX_IDLE) {
    const oldest = idle.shift();
    void oldest?.warm.worker.terminate();
  }
}

/**
 * A closing pool's worker: left warm for the next pool when it may be (the pool keeps workers warm
 * and is not broken; the worker booted, is idle, below half its memory limit and its run budget,
 * its builtins its own), told to forget its journals; else ended.
 */
export async function leaveWarmOrEnd(slot: Slot, pool: { warm: boolean; boot: string; maxHeapMb: number; recycleAfterRuns: number }): Promise<void> {
  const idleAndHealthy = isReady(slot.heartbeat) && slot.retire !== true && slot.sent.length === 0 && slot.loading.length === 0 && slot.cpuAsked.length === 0;
  if (!pool.warm || !asked || !idleAndHealthy || slot.heapMb > pool.maxHeapMb / 2 || slot.runs >= pool.recycleAfterRuns) return void (await slot.worker.terminate());
  slot.worker.postMessage({ type: 'forget' } satisfies ToWorker);
  slot.keptWarm = true;
  keepWarm(warmKey({ boot: pool.boot, maxHeapMb: pool.maxHeapMb, graphFile: slot.graphFile }), { worker: slot.worker, heartbeat: slot.heartbeat, runs: slot.runs });
}

/** An idle worker started with `key`, now referenced and with no listener, or undefined. */
export function takeWarm(key: string): WarmWorker | undefined {
  const index = idle.findIndex((entry) => entry.key === key);
  if (index === -1) return undefined;
  const [entry] = idle.splice(index, 1);
  if (!entry) return undefined;
  const { worker } = entry.warm;
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  worker.ref();
  return entry.warm;
}

/** How many idle workers are kept now (tests). */
export function idleWorkers(): number {
  return idle.length;
}

/** Ends every idle worker, and pools keep theirs warm no more. */
export async function endWarmWorkers(): Promise<void> {
  asked = false;
  await Promise.all(idle.splice(0).map((entry) => entry.warm.worker.terminate()));
}
