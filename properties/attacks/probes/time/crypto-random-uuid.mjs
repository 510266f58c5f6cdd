// Tries: crypto.randomUUID from node:crypto, fed into the step count.
// Expected: served — derived from the scenario's draws (docs/adapters.md Path 1).
import { randomUUID } from 'node:crypto';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('crypto-random-uuid', () => observe('randomUUID', randomUUID()));
