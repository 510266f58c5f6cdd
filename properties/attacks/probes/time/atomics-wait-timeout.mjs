// Tries: Atomics.wait with a 3 s timeout, measured with Date.now().
// Expected: served — Atomics.wait with a timeout blocks for that long on the virtual clock (docs/adapters.md Path 1).
// Oracle: less than 2.5 s on the clock across the wait means it did not wait on the virtual clock.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('atomics-wait-timeout', () => {
  const start = Date.now();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
  const elapsed = Date.now() - start;
  if (elapsed < 2500) leak('Atomics.wait', elapsed);
});
