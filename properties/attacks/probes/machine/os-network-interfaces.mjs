// Tries: os.networkInterfaces() (addresses and MACs).
// Expected: served — node:os answers for a fixed simulated machine (docs/adapters.md).
// Oracle: the real machine's first non-internal MAC address (passed by the runner).
import { networkInterfaces } from 'node:os';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('os-network-interfaces', () => {
  const macs = Object.values(networkInterfaces()).flat().map((i) => i?.mac);
  if (env('ATTACK_REAL_MAC') && macs.includes(env('ATTACK_REAL_MAC'))) leak('os.networkInterfaces', env('ATTACK_REAL_MAC'));
});
