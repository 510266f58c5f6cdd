// Tries: fs.mkdirSync(recursive) of folders under the canary folder.
// Expected: served — mkdir is served; outside the work folder the simulated machine has nothing (docs/adapters.md Path 1).
import { mkdirSync } from 'node:fs';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('mkdir-recursive-abs', () => mkdirSync(canary('a/b/c'), { recursive: true }));
