import type { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { beat, newHeartbeat } from './heartbeat.js';
import { overMemoryBudget } from './memoryBudget.js';
import type { PendingRun, Slot } from './poolSlot.js';

/** A slot as the pool keeps it: `busy` with a run sent, its last beat seen at `lastBeatAtMs`. */
function slot(busy: boolean, lastBeatAtMs: number): Slot {
  const heartbeat = newHeartbeat();
  return { worker: {} as Worker, heartbeat, graphFile: undefined, loaded: new Set(), sent: busy ? [{} as PendingRun] : [], runs: 0, lastBeats: 0, lastBeatAtMs, startedAtMs: 0, heapMb: 0, exiting: false, cpuAsked: [], loading: [] };
}

describe('the process memory budget (two heap limits a worker and 1 GB)', () => {
  // Two workers of 512 MB: 2 × 576 × 2 + 1024 = 3328 MB.
  test('past it, each busy worker that has not beaten for the quiet time is named, with the budget and where it stopped', () => {
    const held = slot(true, 0);
    const idle = slot(false, 0);
    const named = overMemoryBudget([held, idle], 512, 1000, 100, 3400);
    expect(named.map((n) => n.slot)).toEqual([held]);
    expect(named[0]?.detail).toBe("durasim's process passed 3328 MB while the journal's code held the thread worker-0#0 after global step 0 (fs.open) (buffers allocated in a loop?)");
  });

  test('not below it, nor a worker that beat since the last look, nor one that was quiet less than the quiet time', () => {
    expect(overMemoryBudget([slot(true, 0)], 512, 1000, 100, 2000)).toEqual([]);
    const beating = slot(true, 0);
    beat(beating.heartbeat, 3, 0, 0, 'fs.open');
    const recent = slot(true, 950);
    expect(overMemoryBudget([beating, recent], 512, 1000, 100, 3400)).toEqual([]);
  });
});
