// Tries: process.pid.
// Expected: served — a pid per incarnation (docs/adapters.md).
// Oracle: durasim's real pid (passed by the runner).
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('process-pid', () => { if (String(process.pid) === env('ATTACK_REAL_PID')) leak('process.pid', process.pid); });
