// Tries: AbortSignal.timeout(3000), awaited, measured with Date.now().
// Expected: served — AbortSignal.timeout is on virtual time (docs/adapters.md Path 1).
// Oracle: less than 2.5 s on the clock until the abort means another clock.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('abort-signal-timeout', async () => {
  const start = Date.now();
  await new Promise((done) => AbortSignal.timeout(3000).addEventListener('abort', done));
  const elapsed = Date.now() - start;
  if (elapsed < 2500) leak('AbortSignal.timeout', elapsed);
});
