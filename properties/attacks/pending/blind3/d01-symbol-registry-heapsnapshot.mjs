// d01 — the global symbol registry (V8's process-lifetime table behind Symbol.for), read back through
// v8.getHeapSnapshot().
// Place: Symbol.for(key) registers key in a per-isolate table that is a GC root and is never emptied;
// JavaScript has no way to list it, but a heap snapshot serializes every string reachable from the
// roots, the registry's keys among them.
// Technique: put(tag) calls Symbol.for('AtkReg' + hex(tag) + 'gEr') and drops the symbol. get(tag)
// first takes a heap snapshot (taken synchronously, with a full GC), and only AFTER that builds the
// marker string and searches the snapshot's JSON for it, so the search string itself is never in the
// snapshot; nothing but the registry holds the marker. No property is written anywhere, so no
// put-back of objects can see it.
// Node: 20, 22, 24 (self-test passes on all three). Cost: one snapshot (~0.1-1 s) per get.
// Expected of a correct durasim: exit 1 (a fresh registry per incarnation is impossible in one
// thread, so it must refuse the read or the write), or exit 4 if v8.getHeapSnapshot (or Symbol.for
// as a registry write) is refused by name. Exit 0 = the registry carried memory across a crash.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import v8 from 'node:v8';

function hex(s) { let h = ''; for (let i = 0; i < s.length; i++) h += s.charCodeAt(i).toString(16).padStart(4, '0'); return h; }
const marker = (tag) => 'AtkReg' + hex(String(tag)) + 'gEr';

async function snapshotHas(tag) {
  const snap = v8.getHeapSnapshot(); // taken now, before the marker exists
  const m = marker(tag);
  let tail = '';
  let found = false;
  for await (const chunk of snap) {
    if (found) continue; // drain
    const text = tail + (typeof chunk === 'string' ? chunk : chunk.toString('latin1'));
    if (text.includes(m)) found = true;
    tail = text.slice(-m.length);
  }
  return found;
}
export const stash = {
  put(tag) { Symbol.for(marker(tag)); },
  async get(tag) { return (await snapshotHas(tag)) ? 'alive' : undefined; },
};
export default memoryJournal('d01-symbol-registry-heapsnapshot', verified('d01-symbol-registry-heapsnapshot', stash));
