// Tries: require (via module.createRequire) of a real JSON data file outside the journal and the work folder.
// Expected: refused — it reads real disk data outside the simulated disk (README "The sandbox").
// API: require|bait.json
// Oracle: the bait's token in the loaded data proves a real read.
import { createRequire } from 'node:module';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('require-bait-json', () => {
  const data = createRequire(import.meta.url)(`${env('ATTACK_BAIT')}/bait.json`);
  if (data.token === env('ATTACK_BAIT_TOKEN')) leak('require read the real bait', data.token);
});
