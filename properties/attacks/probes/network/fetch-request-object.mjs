// Tries: fetch of a Request object (POST with a body) aimed at the real TCP canary.
// Expected: served — fetch reaches the fake service only, whatever form its input takes (docs/adapters.md Path 1).
// Oracle: the canary's token in the body proves a real connection.
// Revised: finding — as fetch-loopback: the request never leaves the simulation and is the routed-requests
//   violation (exit 1), the canary never reached.
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('fetch-request-object', async () => {
  const body = await (await fetch(new Request(`http://127.0.0.1:${env('ATTACK_PORT')}/request`, { method: 'POST', body: 'x' }))).text();
  if (body.includes(env('ATTACK_NET_TOKEN'))) leak('fetch(Request) reached a real server', body);
});
