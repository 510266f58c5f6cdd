// Tries: fs/promises writeFile to an absolute real path in the canary folder.
// Expected: served — node:fs/promises is served by the simulated disk: ENOENT outside the work folder (docs/adapters.md Path 1).
import { writeFile } from 'node:fs/promises';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('promises-write-file-abs', () => writeFile(canary('promises-write-file'), 'x'));
