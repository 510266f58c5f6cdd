// Tries: process.argv (durasim's own command line).
// Expected: served — a simulated process's argv, nothing of the real command line.
// Oracle: durasim's real bin path (passed by the runner) in argv.
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('process-argv', () => { if (process.argv.some((a) => a.includes(env('ATTACK_REAL_ARGV1')))) leak('process.argv', process.argv.join(' ')); });
