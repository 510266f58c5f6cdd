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
       const cpuMs = () => Number(require('node:fs').readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
       parentPort.on('message', () => { const until = cpuMs() + 100; while (cpuMs() < until); parentPort.postMessage('spun'); });`,
      { eval: true },
    );
    const tid = await new Promise<number>((resolve) => worker.once('message', resolve));
    expect(tid).not.toBe(process.pid);
    // The worker listens for good (on, not once): a worker with nothing left to wait for ends, and its
    // /proc entry with it, which on a busy machine came before the read below (NaN on Node 24 in CI).
    const before = threadCpuMsOf(tid) as number;
    worker.postMessage('spin');
    await new Promise((resolve) => worker.once('message', resolve));
    // It spun until its own clock said 100 ms of CPU (wall time would not do: a busy machine gave it 9 ms of 300).
    expect((threadCpuMsOf(tid) as number) - before).toBeGreaterThanOrEqual(100);
    await worker.terminate();
    expect(threadCpuMsOf(tid)).toBeUndefined();
  });
});
