// Tries: fs/promises cp of the work folder, recursively, into the canary folder.
// Expected: served — cp is served; outside the work folder is ENOENT (docs/adapters.md Path 1).
import { cp } from 'node:fs/promises';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('cp-recursive-abs', () => cp('.', canary('cp'), { recursive: true }));
