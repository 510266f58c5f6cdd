// Tries: a relative path that climbs out of the work folder ("../" thirty times) to the canary folder.
// Expected: served — a path outside the work folder is ENOENT on the simulated machine (docs/adapters.md Path 1).
import { writeFileSync } from 'node:fs';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('relative-climb', () => writeFileSync('../'.repeat(30) + canary('climb').replace(/^\//, ''), 'x'));
