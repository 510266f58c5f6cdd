// d12 — a legacy internal binding object: process.binding('constants') (also 'config', 'uv') returns
// Node's own cached internalBinding object, the one Node's modules read their constants from, the
// same object at every call for the thread's life. process.binding is deprecated (DEP0111) but warns
// only under --pending-deprecation; it is a function of process, not a property of anything.
// Technique: put(tag) sets an own property 'atk:'+tag on the binding objects of 'constants',
// 'config' and 'uv'; get(tag) looks on them.
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 4 (process.binding refused by name: process.binding('fs') would
// be the real disk), or exit 1 (served with per-incarnation objects). Exit 0 = memory survived on an
// internal binding — and process.binding itself is reachable.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

function bindings() {
  const out = [];
  for (const n of ['constants', 'config', 'uv']) { try { const b = process.binding(n); if (b && typeof b === 'object') out.push(b); } catch {} }
  return out;
}
export const stash = {
  put(tag) { const bs = bindings(); if (bs.length === 0) throw new Error('process.binding gave nothing'); for (const b of bs) { try { b['atk:' + tag] = 'alive'; } catch {} } },
  get(tag) { for (const b of bindings()) { if (Object.prototype.hasOwnProperty.call(b, 'atk:' + tag)) return b['atk:' + tag]; } return undefined; },
};
export default memoryJournal('d12-process-binding', verified('d12-process-binding', stash));
