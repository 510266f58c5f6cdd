/**
 * CPU per thread of a child process, read from Linux's /proc/<pid>/task/<tid>/stat while it runs
 * (the last reading of each thread before it exits). The main thread is the one whose id is the
 * process's; a pool's worker threads are the busiest others (each runs JavaScript without pause);
 * the rest are V8's helpers (concurrent compilation, parallel and concurrent GC) and libuv's.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  /** CPU seconds of the main thread, of each worker thread (busiest first), and of the helpers together. */
  mainSeconds: number;
  workerSeconds: number[];
  helperSeconds: number;
  /** Whether /proc could be read (it cannot off Linux): the figures are zero then. */
  measured: boolean;
}

const TICKS_PER_SECOND = 100; // Linux's USER_HZ

/** Polls the threads of `pid` every `intervalMs` until `done` settles; then splits them as above. */
export async function threadCpuOf(pid: number, workers: number, done: Promise<unknown>, intervalMs = 100): Promise<ThreadCpu> {
  const last = new Map<number, number>();
  let finished = false;
  void done.finally(() => (finished = true));
  const read = (): void => {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // Fields 14 and 15 of stat(5) (utime, stime): 12 and 13 after the name.
        last.set(Number(tid), Number(fields[11]) + Number(fields[12]));
      } catch {
        // the thread ended between the listing and the read
      }
    }
  };
  while (!finished) {
    read();
    await new Promise((resolve) => setTimeout(resolve, intervalMs)); // allow-ambient: the bench's own polling
  }
  await done;
  const main = (last.get(pid) ?? 0) / TICKS_PER_SECOND;
  const others = [...last].filter(([tid]) => tid !== pid).map(([, ticks]) => ticks / TICKS_PER_SECOND).sort((a, b) => b - a);
  return { mainSeconds: main, workerSeconds: others.slice(0, workers), helperSeconds: others.slice(workers).reduce((a, b) => a + b, 0), measured: last.size > 0 };
}
