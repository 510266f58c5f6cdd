// f10 — singletons handed out only by getters: the SubtleCrypto instance (module-level in
// internal/crypto/webcrypto, returned by the Crypto.prototype `subtle` getter and by the `subtle` getter on
// node:crypto's exports; globalThis.crypto itself is a getter) and, on Node 21+, the Navigator instance
// (module-level in internal/navigator, reachable only through the globalThis `navigator` getter).
// Neither is a property value anywhere: a walk that reads no getter never meets them.
// Technique: put(tag) sets an own property 'atk:'+tag on each of them; get(tag) looks on each.
// Node: 20, 22, 24 (self-test passes on all three; on 20 only crypto.subtle).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the objects frozen so
// put fails: ATK-PUT-FAILED), or exit 4 if the globals are refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

function objs() {
  const out = [];
  try { out.push(globalThis.crypto.subtle); } catch {}
  try { out.push(globalThis.navigator); } catch {}
  return out.filter((o) => o && (typeof o === 'object' || typeof o === 'function'));
}
export const stash = {
  put(tag) { for (const o of objs()) { try { o['atk:' + tag] = 'alive'; } catch {} } },
  get(tag) { for (const o of objs()) { if (Object.prototype.hasOwnProperty.call(o, 'atk:' + tag)) return o['atk:' + tag]; } return undefined; },
};
export default memoryJournal('f10-lazy-global-singletons', verified('f10-lazy-global-singletons', stash));
