// d08 — a V8 private symbol set on shared builtins by worker_threads.markAsUntransferable(obj): Node
// stores the mark as obj[untransferable_object_private_symbol] = true, a private symbol that
// Reflect.ownKeys, getOwnPropertyDescriptors and every walk of own keys cannot see, which V8 lets be
// added even to a frozen function, and which worker_threads.isMarkedAsUntransferable(obj) reads back.
// Technique: a Bloom filter over a fixed pool of ~90 pure builtin functions (Math but random,
// Reflect, JSON, Object, Number, String and Array statics, sorted by name): put(tag) marks the 4
// functions the tag hashes to; get(tag) asks whether all 4 are marked.
// Node: 22, 24 (Node 20 has markAsUntransferable but no isMarkedAsUntransferable: get throws, so put's
// read-back fails: ATK-PUT-FAILED, the attack is void there).
// Expected of a correct durasim: exit 4 (worker_threads is guarded whole: these two refused by name),
// or exit 1 (served per incarnation). Exit 0 = a private symbol on a builtin carried memory.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import * as wt from 'node:worker_threads';

function pool() {
  const out = [];
  const owners = { Math, Reflect, JSON, Object, Number, String, Array };
  for (const [on, o] of Object.entries(owners)) {
    for (const k of Object.getOwnPropertyNames(o)) {
      if (on === 'Math' && k === 'random') continue;
      let v; try { v = Object.getOwnPropertyDescriptor(o, k).value; } catch { continue; }
      if (typeof v === 'function' && k !== 'prototype' && k !== 'constructor') out.push([on + '.' + k, v]);
    }
  }
  out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return out.map((e) => e[1]);
}
function positions(tag, n) {
  const out = [];
  for (let seed = 0; out.length < 4 && seed < 64; seed++) {
    let h = 2166136261 ^ seed;
    const s = String(tag);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
    const p = h % n;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}
export const stash = {
  put(tag) { const p = pool(); for (const i of positions(tag, p.length)) wt.markAsUntransferable(p[i]); },
  get(tag) {
    const p = pool();
    return positions(tag, p.length).every((i) => wt.isMarkedAsUntransferable(p[i])) ? 'alive' : undefined;
  },
};
export default memoryJournal('d08-untransferable-mark', verified('d08-untransferable-mark', stash));
