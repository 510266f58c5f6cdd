import { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { ownThreadId, threadCpuMs, threadCpuMsOf } from './threadCpuMs.js';

describe('a thread\'s CPU time, read by another thread of the process', () => {
  test('a worker that spins is seen from the main thread to use CPU; the main thread reads its own the same way', async () => {
    expect(ownThreadId()).toBe(process.pid);
    const own = threadCpuMsOf(process.pid);
    expect(own).toBeGreaterThan(0);
    expect(Math.abs((threadCpuMs() as number) - (own as number))).toBeLessThan(1000);
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads'); const { readlinkSync } = require('node:fs');
       parentPort.postMessage(Number(/task\\/(\\d+)$/.exec(readlinkSync('/proc/thread-self'))[1]));
       parentPort.on('message', () => { const until = Date.now() + 300; while (Date.now() < until); parentPort.postMessage('spun'); });`,
      { eval: true },
    );
    const tid = await new Promise<number>((resolve) => worker.once('message', resolve));
    expect(tid).not.toBe(process.pid);
    // The worker listens for good (on, not once): a worker with nothing left to wait for ends, and its
    // /proc entry with it, which on a busy machine came before the read below (NaN on Node 24 in CI).
    const before = threadCpuMsOf(tid) as number;
    worker.postMessage('spin');
    await new Promise((resolve) => worker.once('message', resolve));
    // It spun 300 ms of wall time; on a busy machine it may have had less of a core, never none.
    expect((threadCpuMsOf(tid) as number) - before).toBeGreaterThan(10);
    await worker.terminate();
    expect(threadCpuMsOf(tid)).toBeUndefined();
  });
});
