// One thread of floorScaling.ts: warms the journal floor up, says so, runs it when told, says when done.
// Plain JavaScript so that a worker thread can start it; it loads the floor through tsx (the bench runs from the sources).
import { parentPort, workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
const { runFloorOnce } = await import('./journalFloor.ts');
const { runs, warm } = workerData;
for (let i = 0; i < warm; i++) await runFloorOnce();
parentPort.postMessage('ready');
parentPort.once('message', async () => {
  for (let i = 0; i < runs; i++) await runFloorOnce();
  parentPort.postMessage('done');
});
