// Tries: process.getuid() compared with the owner of a file the incarnation creates in the work folder.
// Expected: served — one simulated machine: the process's uid owns the files it creates.
// Oracle: the process's uid differs from its own new file's owner (the real uid beside a simulated one).
import { stat, writeFile } from 'node:fs/promises';
import { probe, leak } from '../../lib/probe.mjs';

export default probe('process-getuid', async () => {
  await writeFile('attack-uid.txt', 'x');
  const { uid } = await stat('attack-uid.txt');
  if (process.getuid() !== uid) leak('process.getuid is not the simulated owner', `${process.getuid()} vs ${uid}`);
});
