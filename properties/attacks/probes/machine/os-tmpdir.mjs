// Tries: os.tmpdir() (the runner sets TMPDIR to a folder of its own for durasim).
// Expected: served — temp /tmp on the simulated machine (docs/adapters.md).
// Oracle: the real TMPDIR (passed by the runner).
import { tmpdir } from 'node:os';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('os-tmpdir', () => { if (tmpdir() === env('ATTACK_REAL_TMPDIR')) leak('os.tmpdir', tmpdir()); });
