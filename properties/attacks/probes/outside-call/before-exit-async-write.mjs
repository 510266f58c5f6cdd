// Tries: process.on('beforeExit') whose listener starts an asynchronous write of the canary.
// Expected: served — beforeExit listeners run when run() returns, what they start runs to its end, served (docs/adapters.md).
import { writeFile } from 'node:fs/promises';
import { probe, canary } from '../../lib/probe.mjs';

export default probe('before-exit-async-write', () => {
  process.on('beforeExit', () => writeFile(canary('before-exit'), 'x').catch(() => {}));
});
