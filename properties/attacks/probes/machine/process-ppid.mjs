// Tries: process.ppid.
// Expected: served — the simulated supervisor's pid (docs/adapters.md).
// Oracle: the real parent's pid, the runner's (passed by the runner).
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('process-ppid', () => { if (String(process.ppid) === env('ATTACK_REAL_PPID')) leak('process.ppid', process.ppid); });
