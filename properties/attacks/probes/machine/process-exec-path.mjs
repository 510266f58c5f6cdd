// Tries: process.execPath.
// Expected: served — a fixed simulated value, nothing of the real machine.
// Oracle: the real node binary's path (passed by the runner).
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('process-exec-path', () => { if (process.execPath === env('ATTACK_REAL_EXEC')) leak('process.execPath', process.execPath); });
