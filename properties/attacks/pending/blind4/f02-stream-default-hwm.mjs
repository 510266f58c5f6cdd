// f02 — the streams' default high water mark for object mode: a module-level `let` in
// internal/streams/state, set by stream.setDefaultHighWaterMark(true, n) and read by
// stream.getDefaultHighWaterMark(true) (added in Node 19.9 / 18.17). Not a property of anything.
// Technique: a Bloom filter in the number: value = 2^40 + mask (40 bits), each tag sets 3 bits chosen by
// hashes of the tag; put ORs them in (keeping earlier bits), get(tag) checks all 3 are set. The default
// (16) is below 2^40, so nothing reads as marked before the first put.
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the default back to 16 at the next incarnation, or the setter
// refused so put fails: ATK-PUT-FAILED), or exit 4 if the API is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import stream from 'node:stream';

const BASE = 2 ** 40, BITS = 40, K = 3;
function fnv(s, seed) {
  let x = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 0x01000193) >>> 0; }
  return x >>> 0;
}
const idx = (tag) => Array.from({ length: K }, (_, i) => fnv(tag, i) % BITS);
const bit = (mask, i) => Math.floor(mask / 2 ** i) % 2 === 1;
function mask() {
  const v = stream.getDefaultHighWaterMark(true);
  return Number.isSafeInteger(v) && v >= BASE && v < 2 * BASE ? v - BASE : undefined;
}
export const stash = {
  put(tag) {
    let m = mask() ?? 0;
    for (const i of idx(tag)) if (!bit(m, i)) m += 2 ** i;
    stream.setDefaultHighWaterMark(true, BASE + m);
  },
  get(tag) {
    const m = mask();
    if (m === undefined) return undefined;
    return idx(tag).every((i) => bit(m, i)) ? 'alive' : undefined;
  },
};
export default memoryJournal('f02-stream-default-hwm', verified('f02-stream-default-hwm', stash));
