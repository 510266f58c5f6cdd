// Tries: Date.now() read at the module's top level, kept in module memory, looked at in run().
// Expected: served — a clock read while loading gives the virtual time (docs/adapters.md "What the sandbox does").
// Oracle: a value within 30 days of the runner's real clock is the real clock.
import { probe, leak, nearRealNow, observe } from '../../lib/probe.mjs';

const loadedAt = Date.now();
export default probe('date-at-load', async () => {
  if (nearRealNow(loadedAt)) leak('Date.now at load', loadedAt);
  await observe('Date.now at load', loadedAt);
});
