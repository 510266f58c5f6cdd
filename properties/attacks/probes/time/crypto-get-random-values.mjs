// Tries: crypto.getRandomValues (the global web crypto), fed into the step count.
// Expected: served — bytes derived from the scenario's draws (docs/adapters.md Path 1).
import { probe, observe } from '../../lib/probe.mjs';

export default probe('crypto-get-random-values', () => observe('getRandomValues', crypto.getRandomValues(new Uint32Array(1))[0]));
