// d09 — events' module-level defaultMaxListeners, changed through the FUNCTION events.setMaxListeners(n)
// (with no targets it assigns the closure variable directly, not through the
// EventEmitter.defaultMaxListeners setter) and read back through a fresh emitter's getMaxListeners()
// (not through the property).
// Technique: a Bloom filter in the number: n = 2^40 + mask, mask a 30-bit set; put(tag) ORs in the 4
// bits the tag hashes to and calls setMaxListeners(n); get(tag) reads new EventEmitter().getMaxListeners()
// and checks the 4 bits. (A huge limit only silences the leak warning.)
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the docs say EventEmitter.defaultMaxListeners is reset at
// each incarnation; this checks the reset also covers a value set by the function), or exit 4 if
// events.setMaxListeners is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import { EventEmitter, setMaxListeners } from 'node:events';

const BASE = 2 ** 40;
function bits(tag) {
  let m = 0;
  for (let seed = 0, n = 0; n < 4 && seed < 64; seed++) {
    let h = 2166136261 ^ seed;
    const s = String(tag);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
    const b = 1 << (h % 30);
    if (!(m & b)) { m |= b; n++; }
  }
  return m;
}
function mask() { const n = new EventEmitter().getMaxListeners(); return n >= BASE ? n - BASE : undefined; }
export const stash = {
  put(tag) { setMaxListeners(BASE + (((mask() ?? 0) | bits(tag)) >>> 0)); },
  get(tag) { const m = mask(); if (m === undefined) return undefined; const b = bits(tag); return (m & b) === b ? 'alive' : undefined; },
};
export default memoryJournal('d09-default-max-listeners', verified('d09-default-max-listeners', stash));
