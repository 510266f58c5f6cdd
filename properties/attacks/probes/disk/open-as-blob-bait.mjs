// Tries: fs.openAsBlob on a real bait file outside the work folder, then reads its text.
// Expected: refused — not in the served list; every function of fs is guarded (docs/adapters.md "What the sandbox does").
// API: openAsBlob
// Oracle: the bait's token in the text proves a real read.
import { openAsBlob } from 'node:fs';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('open-as-blob-bait', async () => {
  const text = await (await openAsBlob(`${env('ATTACK_BAIT')}/bait.txt`)).text();
  if (text.includes(env('ATTACK_BAIT_TOKEN'))) leak('openAsBlob read the real bait', text);
});
