// Tries: fs.readFileSync of a real bait file outside the work folder.
// Expected: served — ENOENT: outside the work folder the simulated machine has nothing (docs/adapters.md Path 1).
// Oracle: the bait's token in the text proves a real read.
import { readFileSync } from 'node:fs';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('read-file-sync-bait', () => {
  const text = readFileSync(`${env('ATTACK_BAIT')}/bait.txt`, 'utf8');
  if (text.includes(env('ATTACK_BAIT_TOKEN'))) leak('readFileSync read the real bait', text);
});
