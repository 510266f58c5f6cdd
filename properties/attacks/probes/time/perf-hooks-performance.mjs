// Tries: performance from node:perf_hooks (not the global) around a 5 s sleep.
// Expected: served — the virtual clock, however reached (docs/adapters.md Path 1).
// Oracle: less than 4 s between the two reads across a 5 s virtual sleep is a real clock.
import { performance as perf } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { probe, leak } from '../../lib/probe.mjs';

export default probe('perf-hooks-performance', async () => {
  const before = perf.now();
  await sleep(5000);
  const elapsed = perf.now() - before;
  if (elapsed < 4000) leak('perf_hooks performance.now moved less than the virtual sleep', elapsed);
});
