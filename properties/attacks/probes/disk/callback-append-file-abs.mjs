// Tries: the callback form fs.appendFile to an absolute real path in the canary folder.
// Expected: served — node:fs callbacks are served by the simulated disk (docs/adapters.md Path 1).
import { appendFile } from 'node:fs';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('callback-append-file-abs', () => new Promise((done) => appendFile(canary('append-file'), 'x', done)));
