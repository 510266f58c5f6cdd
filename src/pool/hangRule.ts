/**
 * When the pool's watchdog calls a worker blocked: its heartbeat has stood still while its thread
 * spent the hang timeout of its own CPU time (an endless loop burns CPU), or — for a thread that holds
 * on without using CPU, or where its CPU cannot be read — for a stretch of wall time. CPU time first,
 * because on a busy machine a thread may wait seconds for a core: a slow load or step there is not a
 * blocked one (the last CI run on a loaded machine took a 1 s load for a hang).
 */

/** A thread that stands still without using CPU is stopped after this many hang timeouts of wall time. */
export const WALL_FACTOR = 10;

export interface HangLook {
  hangTimeoutMs: number;
  /** Wall time now and at the heartbeat's last move, ms. */
  nowMs: number;
  lastBeatAtMs: number;
  /** The thread's CPU time now and when first looked at after that move, ms (undefined: unreadable). */
  cpuMs: number | undefined;
  lastBeatCpuMs: number | undefined;
}

/** Undefined while the worker may still be working; else how long it held its thread, in words ("for 5 s of its CPU time"). */
export function hangVerdict(look: HangLook): string | undefined {
  const { hangTimeoutMs, nowMs, lastBeatAtMs, cpuMs, lastBeatCpuMs } = look;
  if (cpuMs !== undefined && lastBeatCpuMs !== undefined && cpuMs - lastBeatCpuMs >= hangTimeoutMs) return `for ${secondsOf(hangTimeoutMs)} s of its CPU time`;
  const wallLimitMs = cpuMs === undefined ? hangTimeoutMs : hangTimeoutMs * WALL_FACTOR;
  return nowMs - lastBeatAtMs >= wallLimitMs ? `for ${secondsOf(wallLimitMs)} s of wall time` : undefined;
}

const secondsOf = (ms: number): string => (ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1);
