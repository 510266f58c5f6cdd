// Tries: crypto.randomBytes with a callback (Node fills it on its thread pool), fed into the step count.
// Expected: served — derived from the scenario's draws (docs/adapters.md Path 1).
import { randomBytes } from 'node:crypto';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('crypto-random-bytes-callback', () => new Promise((done) => randomBytes(8, (error, bytes) => done(observe('randomBytes', error?.code ?? bytes.toString('hex'))))));
