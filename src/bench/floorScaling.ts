/**
 * What this machine gives two threads of plain JavaScript: the journal floor (journalFloor.ts:
 * the reference journal on a Map and plain objects, nothing of durasim's) run in one worker
 * thread, then in two at once, runs per second of wall time. The bench reports it beside check's
 * two-workers-vs-one ratio: a shared or throttled machine caps every program's scaling, and this
 * is that cap, measured the same day with the plainest code there is.
 */
import { Worker } from 'node:worker_threads';

export interface FloorScaling {
  oneThreadPerSecond: number;
  twoThreadsPerSecond: number;
  ratio: number;
}

/** Runs the floor `runs` times in each of `threads` worker threads started together; wall time until the last ends. */
async function floorThreads(threads: number, runs: number): Promise<number> {
  const workers = Array.from({ length: threads }, () => new Worker(new URL('./floorScalingWorker.mjs', import.meta.url), { workerData: { runs, warm: Math.min(2000, runs) } }));
  // Each worker warms up, then waits at the barrier (its first message) so that the timed parts overlap.
  await Promise.all(workers.map((worker) => new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  })));
  const go = performance.now();
  const done = workers.map((worker) => new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  }));
  for (const worker of workers) worker.postMessage('go');
  await Promise.all(done);
  const wallMs = performance.now() - go;
  await Promise.all(workers.map((worker) => worker.terminate()));
  return (threads * runs) / (wallMs / 1000);
}

export async function floorScaling(options: { runs: number; rounds: number }): Promise<FloorScaling> {
  let one = 0;
  let two = 0;
  // Alternating rounds, the best of each: the machine's speed moves between seconds.
  for (let round = 0; round < options.rounds; round++) {
    one = Math.max(one, await floorThreads(1, options.runs));
    two = Math.max(two, await floorThreads(2, options.runs));
  }
  return { oneThreadPerSecond: one, twoThreadsPerSecond: two, ratio: two / one };
}
