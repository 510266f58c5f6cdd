// Tries: process.cwd().
// Expected: served — the simulated work folder (docs/adapters.md).
// Oracle: the real working folder durasim was started in (passed by the runner).
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('process-cwd', () => { if (process.cwd() === env('ATTACK_REAL_CWD')) leak('process.cwd', process.cwd()); });
