/**
 * The CPU time the calling thread has used so far, ms, from Linux's /proc/thread-self/schedstat
 * (nanoseconds on a CPU: finer than stat's 10 ms ticks); undefined where there is no /proc. What
 * the bench reads of a pool worker's own boot and warm-up (WorkerPool.threadCpuMs).
 */
import { readFileSync } from 'node:fs';

export function threadCpuMs(): number | undefined {
  try {
    const ns = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
