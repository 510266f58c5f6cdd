// Tries: os.hostname().
// Expected: served — node:os answers for a fixed simulated machine (docs/adapters.md).
// Oracle: the real host name (passed by the runner).
import { hostname } from 'node:os';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('os-hostname', () => { if (hostname() === env('ATTACK_REAL_HOST')) leak('os.hostname', hostname()); });
