// Tries: Math.random() in run(), fed into the step count.
// Expected: served — the scenario's random draws (docs/adapters.md Path 1).
import { probe, observe } from '../../lib/probe.mjs';

export default probe('math-random', () => observe('Math.random', Math.random()));
