// Tries: os.freemem() (changes from run to run), fed into the step count.
// Expected: served — node:os answers for a fixed simulated machine (docs/adapters.md).
import { freemem } from 'node:os';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('os-freemem', () => observe('freemem', freemem()));
