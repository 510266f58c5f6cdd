// Tries: fs.writeFileSync with a file: URL object naming the canary folder.
// Expected: served — the same served call, whatever the path's form (docs/adapters.md Path 1).
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('file-url-path', () => writeFileSync(pathToFileURL(canary('url')), 'x'));
