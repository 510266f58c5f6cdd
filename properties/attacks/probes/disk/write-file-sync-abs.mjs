// Tries: fs.writeFileSync to an absolute real path in the canary folder.
// Expected: served — node:fs sync calls are served by the simulated disk, which has nothing outside the work folder (ENOENT) (docs/adapters.md Path 1).
import { writeFileSync } from 'node:fs';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('write-file-sync-abs', () => writeFileSync(canary('write-file-sync'), 'x'));
