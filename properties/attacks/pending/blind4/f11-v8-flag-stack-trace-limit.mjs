// f11 — a V8 flag: v8.setFlagsFromString('--stack-trace-limit=N') changes the isolate-wide flag that V8 copies
// into Error.stackTraceLimit of every context created afterwards (vm.createContext, and any fresh context a
// simulator might make per incarnation). Flags are process state in C++; nothing in JS holds them.
// (Not the same place as writing Error.stackTraceLimit: this writes the flag, not any context's property.)
// Technique: a Bloom filter in the number: N = 2^29 + mask (29 bits), each tag sets 3 bits; put reads the
// current flag (Error.stackTraceLimit of a new vm context), ORs the tag's bits in and sets the flag;
// get(tag) reads it the same way, and also looks at this context's own Error.stackTraceLimit (which shows
// the flag if the incarnation's context was made after the put).
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the flag not carried over, or refused so put fails:
// ATK-PUT-FAILED), or exit 4 if v8.setFlagsFromString (or vm) is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import v8 from 'node:v8';
import vm from 'node:vm';

const BASE = 2 ** 29, BITS = 29, K = 3;
function fnv(s, seed) {
  let x = (0x811c9dc5 ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
  for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 0x01000193) >>> 0; }
  return x >>> 0;
}
const idx = (tag) => Array.from({ length: K }, (_, i) => fnv(tag, i) % BITS);
const asMask = (v) => (Number.isInteger(v) && v >= BASE && v < 2 * BASE ? v - BASE : undefined);
function masks() {
  const out = [];
  try { out.push(asMask(vm.runInNewContext('Error.stackTraceLimit'))); } catch {}
  try { out.push(asMask(Error.stackTraceLimit)); } catch {}
  return out.filter((m) => m !== undefined);
}
export const stash = {
  put(tag) {
    let m = asMask(vm.runInNewContext('Error.stackTraceLimit')) ?? 0;
    for (const i of idx(tag)) m |= 1 << i;
    v8.setFlagsFromString('--stack-trace-limit=' + (BASE + m));
  },
  get(tag) {
    return masks().some((m) => idx(tag).every((i) => (m >>> i) & 1)) ? 'alive' : undefined;
  },
};
export default memoryJournal('f11-v8-flag-stack-trace-limit', verified('f11-v8-flag-stack-trace-limit', stash));
