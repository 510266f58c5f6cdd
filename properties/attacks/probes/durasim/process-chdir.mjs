// Tries: process.chdir into the canary folder (durasim writes its reports relative to its working folder).
// Expected: refused — it changes the real process; nothing serves it.
// API: chdir
import { probe, env } from '../../lib/probe.mjs';

export default probe('process-chdir', () => process.chdir(env('ATTACK_DIR')));
