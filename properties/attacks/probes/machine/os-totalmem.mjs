// Tries: os.totalmem().
// Expected: served — node:os answers for a fixed simulated machine (docs/adapters.md).
// Oracle: the real total memory (passed by the runner).
import { totalmem } from 'node:os';
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('os-totalmem', () => { if (String(totalmem()) === env('ATTACK_REAL_MEM')) leak('os.totalmem', totalmem()); });
