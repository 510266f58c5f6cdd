// Tries: worker_threads' parentPort, posting messages shaped like a clean result to durasim's main thread,
//   on the journal that never fsyncs.
// Expected: refused — worker_threads is refused by name (docs/adapters.md "Not served").
// API: parentPort|worker_threads
// Revised: finding — a journal's thread has no parentPort (null: the pool's port is taken before any journal
//   code), so the forged messages go nowhere and nothing is refused; the never-fsyncing base journal's own
//   defect is found (exit 1, write-ahead).
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
