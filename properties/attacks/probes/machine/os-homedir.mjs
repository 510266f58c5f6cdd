// Tries: os.homedir().
// Expected: served — home /home/durasim on the simulated machine (docs/adapters.md).
// Oracle: the real home folder (passed by the runner).
import { homedir } from 'node:os';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('os-homedir', () => { if (homedir() === env('ATTACK_REAL_HOME')) leak('os.homedir', homedir()); });
