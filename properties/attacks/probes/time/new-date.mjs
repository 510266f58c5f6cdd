// Tries: new Date().getTime() in run().
// Expected: served — the virtual clock (docs/adapters.md Path 1).
// Oracle: a value within 30 days of the runner's real clock is the real clock.
import { probe, leak, nearRealNow, observe } from '../../lib/probe.mjs';

export default probe('new-date', async () => {
  const now = new Date().getTime();
  if (nearRealNow(now)) leak('new Date', now);
  await observe('new Date', now);
});
