// Tries: openSync + writeSync + closeSync on a descriptor of an absolute real path in the canary folder.
// Expected: served — descriptor calls are served by the simulated disk (docs/adapters.md Path 1).
import { closeSync, openSync, writeSync } from 'node:fs';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('open-write-fd-abs', () => {
  const fd = openSync(canary('fd'), 'w');
  writeSync(fd, 'x');
  closeSync(fd);
});
