// Tries: process.umask() (the runner starts durasim under umask 027).
// Expected: served — a fixed simulated value, nothing of the real machine.
// Oracle: the real umask, 027 (passed by the runner).
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('process-umask', () => { if (process.umask() === Number(env('ATTACK_REAL_UMASK'))) leak('process.umask', process.umask().toString(8)); });
