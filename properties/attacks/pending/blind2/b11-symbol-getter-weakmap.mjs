// b11 — a registered-symbol-keyed, non-enumerable accessor on globalThis whose getter closes over a
// WeakMap keyed by a shared intrinsic (Object.prototype). No string key, no enumerable property, no
// data property: only Reflect.ownKeys / getOwnPropertySymbols sees it, and the state itself lives in
// a closure and a WeakMap, never in a property value.
// Technique: put(tag) finds or defines globalThis[Symbol.for('nodejs.atk.registry')] (get-only,
// configurable) and adds the tag to the Set the WeakMap holds for Object.prototype; get(tag) reads
// through the getter. A fresh process has no such property.
// Expected of a correct durasim: exit 1 (the symbol-keyed accessor removed at the next incarnation's
// start), or exit 4 if the definition is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';

const KEY = Symbol.for('nodejs.atk.registry');
function registry(create) {
  const d = Object.getOwnPropertyDescriptor(globalThis, KEY);
  if (d && typeof d.get === 'function') return d.get();
  if (!create) return undefined;
  const wm = new WeakMap();
  Object.defineProperty(globalThis, KEY, { get() { return wm; }, enumerable: false, configurable: true });
  return wm;
}
export const stash = {
  put(tag) {
    const wm = registry(true);
    let s = wm.get(Object.prototype);
    if (!s) { s = new Set(); wm.set(Object.prototype, s); }
    s.add(tag);
  },
  get(tag) { return registry(false)?.get(Object.prototype)?.has(tag) ? 'alive' : undefined; },
};
export default memoryJournal('b11-symbol-getter-weakmap', verified('b11-symbol-getter-weakmap', stash));
