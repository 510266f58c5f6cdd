/**
 * What the watchdog makes of a worker doing durasim's own work: booting (its module graph), or
 * compiling a journal and loading durasim's modules for it (heartbeat.ts setOwnWork). No journal
 * code runs then, so none of it counts against a journal's hang timeout (on a busy machine a boot
 * alone took more than a short one, and loading the journal side of the graph more than 30 ms of
 * CPU); each is bounded by the boot timeout, past which it is durasim's own failure.
 */
import { OwnFailure, REINSTALL } from '../ownFailure.js';
import { bootFailure } from './bootFailure.js';
import { inOwnWork, isReady } from './heartbeat.js';
import type { Slot } from './poolSlot.js';

export interface OwnWorkBounds {
  bootTimeoutMs: number;
  /** The worker's boot file and heap limit, for a boot's failure. */
  boot: string;
  maxHeapMb: number;
}

/** 'own' while the worker does durasim's own work (its hang clock held), the failure once that passed its bound, undefined otherwise. */
export function ownWorkLook(slot: Slot, nowMs: number, bounds: OwnWorkBounds): 'own' | OwnFailure | undefined {
  const booting = !isReady(slot.heartbeat);
  if (!booting && !inOwnWork(slot.heartbeat)) {
    slot.ownWorkSinceMs = undefined;
    return undefined;
  }
  if (booting && nowMs - slot.startedAtMs > bounds.bootTimeoutMs) return bootFailure(bounds.boot, { hungMs: bounds.bootTimeoutMs }, bounds.maxHeapMb + 64);
  if (!booting) {
    slot.ownWorkSinceMs ??= nowMs;
    if (nowMs - slot.ownWorkSinceMs > bounds.bootTimeoutMs) return new OwnFailure('load a journal in a worker', `compiling it and loading durasim's modules for it did not end within ${bounds.bootTimeoutMs / 1000} s (it takes well under a second): it hangs`, REINSTALL);
  }
  slot.lastBeatAtMs = nowMs;
  slot.lastBeatCpuMs = undefined;
  return 'own';
}
