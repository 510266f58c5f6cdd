// Tries: the global fetch to the real TCP canary on 127.0.0.1.
// Expected: served — fetch reaches the fake service only; any other host is unreachable (docs/adapters.md Path 1).
// Oracle: the canary's token in the body proves a real connection.
// Revised: finding — a request to a host the task's service is not at never leaves the simulation, and is the
//   routed-requests safety violation (README invariants; issue 54): both runs exit 1 naming 127.0.0.1, the
//   canary never reached.
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('fetch-loopback', async () => {
  const body = await (await fetch(`http://127.0.0.1:${env('ATTACK_PORT')}/fetch`)).text();
  if (body.includes(env('ATTACK_NET_TOKEN'))) leak('fetch reached a real server', body);
});
