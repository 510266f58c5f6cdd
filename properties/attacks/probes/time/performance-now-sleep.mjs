// Tries: performance.now() around a 5 s sleep on timers/promises.
// Expected: served — both on the virtual clock: 5 s pass in it (docs/adapters.md Path 1).
// Oracle: less than 4 s between the two reads across a 5 s virtual sleep is a real clock.
import { setTimeout as sleep } from 'node:timers/promises';
import { probe, leak } from '../../lib/probe.mjs';

export default probe('performance-now-sleep', async () => {
  const before = performance.now();
  await sleep(5000);
  const elapsed = performance.now() - before;
  if (elapsed < 4000) leak('performance.now moved less than the virtual sleep', elapsed);
});
