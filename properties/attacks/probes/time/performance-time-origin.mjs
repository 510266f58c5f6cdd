// Tries: performance.timeOrigin (an epoch time).
// Expected: served — the virtual clock (docs/adapters.md Path 1).
// Oracle: a value within 30 days of the runner's real clock is the real clock.
import { probe, leak, nearRealNow, observe } from '../../lib/probe.mjs';

export default probe('performance-time-origin', async () => {
  if (nearRealNow(performance.timeOrigin)) leak('performance.timeOrigin', performance.timeOrigin);
  await observe('timeOrigin', performance.timeOrigin);
});
