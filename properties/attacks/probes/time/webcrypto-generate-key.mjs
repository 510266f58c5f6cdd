// Tries: crypto.subtle.generateKey (a real random AES key), exported and fed into the step count.
// Expected: refused — key generation is listed as not served (docs/adapters.md "Not served").
// API: generateKey
import { probe, observe } from '../../lib/probe.mjs';

export default probe('webcrypto-generate-key', async () => {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, ['encrypt']);
  await observe('generateKey', Buffer.from(await crypto.subtle.exportKey('raw', key)).toString('hex'));
});
