// Tries: Math.random() drawn at the module's top level, kept in module memory, fed into the step count in run().
// Expected: served — a random draw while loading is deterministic (docs/adapters.md "What the sandbox does").
import { probe, observe } from '../../lib/probe.mjs';

const drawn = Math.random();
export default probe('random-at-load', () => observe('Math.random at load', drawn));
