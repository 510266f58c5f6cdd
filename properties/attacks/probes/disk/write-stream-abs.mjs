// Tries: fs.createWriteStream on an absolute real path in the canary folder, one chunk, end.
// Expected: served — file streams are Node's own over served calls (docs/adapters.md Path 1).
import { createWriteStream } from 'node:fs';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('write-stream-abs', () => new Promise((done) => {
  const stream = createWriteStream(canary('write-stream'));
  stream.on('error', done).on('close', done);
  stream.end('x');
}));
