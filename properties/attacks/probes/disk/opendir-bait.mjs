// Tries: fs.opendirSync of the real bait folder, listing its names.
// Expected: served — ENOENT outside the work folder (docs/adapters.md Path 1).
// Oracle: the bait file's name in the listing proves a real read.
import { opendirSync } from 'node:fs';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('opendir-bait', () => {
  const dir = opendirSync(env('ATTACK_BAIT'));
  for (let entry = dir.readSync(); entry; entry = dir.readSync()) if (entry.name === 'bait.txt') leak('opendir listed the real bait folder', entry.name);
  dir.closeSync();
});
