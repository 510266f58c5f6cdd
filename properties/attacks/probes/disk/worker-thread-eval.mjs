// Tries: a worker_threads Worker with eval'd code that writes the canary file with its own, unguarded fs.
// Expected: refused — worker threads are refused by name (docs/adapters.md "Not served").
// API: Worker
import { Worker } from 'node:worker_threads';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('worker-thread-eval', () => new Promise((done) => {
  const worker = new Worker(`require('fs').writeFileSync(${JSON.stringify(canary('worker'))}, 'x')`, { eval: true });
  worker.on('exit', done).on('error', done);
}));
