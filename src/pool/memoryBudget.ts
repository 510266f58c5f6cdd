/**
 * The last line against a journal that fills memory outside V8's heap (buffers) inside one step,
 * where the in-worker check never runs: past the process budget (two heap limits a worker and 1 GB),
 * each busy worker that has not beaten since the watchdog's last look is named here, and the pool
 * stops its run as out of memory.
 */
import { beats, blockedAt, describeBlockedAt } from './heartbeat.js';
import type { Slot } from './poolSlot.js';

export function overMemoryBudget(slots: readonly Slot[], maxHeapMb: number, nowMs: number, quietMs: number, rssMb = process.memoryUsage.rss() / (1024 * 1024)): { slot: Slot; detail: string }[] {
  const budgetMb = slots.length * (maxHeapMb + 64) * 2 + 1024;
  if (rssMb < budgetMb) return [];
  return slots
    .filter((slot) => slot.sent.length > 0 && !slot.exiting && beats(slot.heartbeat) === slot.lastBeats && nowMs - slot.lastBeatAtMs >= quietMs)
    .map((slot) => ({ slot, detail: `durasim's process passed ${budgetMb} MB while the journal's code held the thread ${describeBlockedAt(blockedAt(slot.heartbeat))} (buffers allocated in a loop?)` }));
}
