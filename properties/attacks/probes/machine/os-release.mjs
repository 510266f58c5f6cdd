// Tries: os.release() (the kernel's version).
// Expected: served — node:os answers for a fixed simulated machine (docs/adapters.md).
// Oracle: the real kernel release (passed by the runner).
import { release } from 'node:os';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('os-release', () => { if (release() === env('ATTACK_REAL_KERNEL')) leak('os.release', release()); });
