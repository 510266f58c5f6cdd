// Tries: crypto.generateKeyPairSync('ed25519'), the public key fed into the step count.
// Expected: refused — key generation is listed as not served (docs/adapters.md "Not served").
// API: generateKeyPair
import { generateKeyPairSync } from 'node:crypto';
import { probe, observe } from '../../lib/probe.mjs';

export default probe('generate-key-pair-sync', () => observe('ed25519', generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).toString('hex')));
