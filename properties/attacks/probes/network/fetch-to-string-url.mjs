// Tries: fetch of an object whose toString names the real canary (a URL built behind the guard's back).
// Expected: served — fetch reaches the fake service only, whatever form its input takes (docs/adapters.md Path 1).
// Oracle: the canary's token in the body proves a real connection.
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('fetch-to-string-url', async () => {
  const body = await (await fetch({ toString: () => `http://127.0.0.1:${env('ATTACK_PORT')}/tostring` })).text();
  if (body.includes(env('ATTACK_NET_TOKEN'))) leak('fetch reached a real server', body);
});
