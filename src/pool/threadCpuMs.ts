/**
 * The CPU time the calling thread has used so far, ms, from Linux's /proc/thread-self/schedstat
 * (nanoseconds on a CPU: finer than stat's 10 ms ticks); undefined where there is no /proc. What
 * the bench reads of a pool worker's own boot and warm-up (WorkerPool.threadCpuMs).
 */
import { readFileSync, readlinkSync } from 'node:fs';

/** Nanoseconds on a CPU, the first field of a schedstat file, as ms; undefined if unreadable. */
function schedstatMs(path: string): number | undefined {
  try {
    const ns = Number(readFileSync(path, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

export function threadCpuMs(): number | undefined {
  return schedstatMs('/proc/thread-self/schedstat');
}

/** The calling thread's id in the kernel (/proc/thread-self is "<pid>/task/<tid>"); undefined where there is no /proc. */
export function ownThreadId(): number | undefined {
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** The CPU another thread of this process has used so far, ms (the pool's watchdog reads its workers'); undefined if unreadable. */
export function threadCpuMsOf(tid: number): number | undefined {
  return schedstatMs(`/proc/self/task/${tid}/schedstat`);
}
