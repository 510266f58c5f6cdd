// Tries: fs.writeFileSync with the path given as a Buffer naming the canary folder.
// Expected: served — the same served call, whatever the path's form (docs/adapters.md Path 1).
import { writeFileSync } from 'node:fs';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('buffer-path', () => writeFileSync(Buffer.from(canary('buffer')), 'x'));
