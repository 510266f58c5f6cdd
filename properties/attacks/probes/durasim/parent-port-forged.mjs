// Tries: worker_threads' parentPort, posting messages shaped like a clean result to durasim's main thread,
//   on the journal that never fsyncs.
// Expected: refused — worker_threads is refused by name (docs/adapters.md "Not served").
// API: parentPort|worker_threads
import { parentPort } from 'node:worker_threads';
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

export default probe('parent-port-forged', () => {
  for (const message of [
    { verdict: 'clean', exitCode: 0, violations: [] },
    { type: 'result', ok: true, verdict: 'clean', violations: [] },
    { kind: 'done', result: { verdict: 'clean', violations: [] } },
  ]) parentPort?.postMessage(message);
}, { base: unsynced });
