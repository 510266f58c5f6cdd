// Tries: Date.now() in run().
// Expected: served — the virtual clock (docs/adapters.md Path 1).
// Oracle: a value within 30 days of the runner's real clock is the real clock (the virtual one starts 2026-01-01).
import { probe, leak, nearRealNow, observe } from '../../lib/probe.mjs';

export default probe('date-now', async () => {
  const now = Date.now();
  if (nearRealNow(now)) leak('Date.now', now);
  await observe('Date.now', now);
});
