// g05 — InternalCryptoKey.prototype of internal/crypto/keys. Every CryptoKey Node makes is an InternalCryptoKey,
// a class that is not exported; its prototype (whose own prototype is the global CryptoKey.prototype) is one
// object per thread, reached only through a key — here the object crypto.subtle.importKey's promise resolves to.
// Technique: put(tag) imports a throwaway HMAC key (16 zero bytes) and defines a non-enumerable own property
// 'atk:'+tag on Object.getPrototypeOf(key); get(tag) imports a fresh key and looks on its prototype.
// Node: 20, 22, 24 (see LIST.md for the self-test).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the prototype frozen so put
// fails: ATK-PUT-FAILED), or exit 4 if WebCrypto is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import { webcrypto } from 'node:crypto';

async function proto() {
  const subtle = globalThis.crypto?.subtle ?? webcrypto.subtle;
  const key = await subtle.importKey('raw', new Uint8Array(16), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return Object.getPrototypeOf(key);
}
export const stash = {
  async put(tag) { Object.defineProperty(await proto(), 'atk:' + tag, { value: 'alive', enumerable: false, writable: true, configurable: true }); },
  async get(tag) { const p = await proto(); return Object.prototype.hasOwnProperty.call(p, 'atk:' + tag) ? p['atk:' + tag] : undefined; },
};
export default memoryJournal('g05-cryptokey-internal-proto', verified('g05-cryptokey-internal-proto', stash));
