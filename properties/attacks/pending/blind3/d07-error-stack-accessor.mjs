// d07 — V8's error 'stack' accessor pair: since V8 12 (Node 22/24) every Error instance, and every
// object Error.captureStackTrace fills, has an own ACCESSOR 'stack' whose getter and setter are two
// functions shared by all errors of the thread. They are reachable only through an instance's
// property descriptor (Error.prototype has no 'stack'), so a walk of the builtins never meets them.
// Technique: put(tag) sets an own property 'atk:'+tag on the getter and the setter of
// Object.getOwnPropertyDescriptor(new Error(), 'stack') (and of a captureStackTrace'd object, if its
// pair differs); get(tag) looks on them.
// Node: 22, 24 (on Node 20 'stack' is a data property: put finds no function, ATK-PUT-FAILED, so the
// attack is void there and a correct run is exit 1 anyway).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the functions
// frozen so put fails), or exit 4 if the write is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

function fns() {
  const out = [];
  const add = (o) => {
    let d; try { d = Object.getOwnPropertyDescriptor(o, 'stack'); } catch { return; }
    for (const f of [d?.get, d?.set]) if (typeof f === 'function' && !out.includes(f)) out.push(f);
  };
  try { add(new Error('atk')); } catch {}
  try { const o = {}; Error.captureStackTrace(o); add(o); } catch {}
  return out;
}
export const stash = {
  put(tag) { for (const f of fns()) { try { f['atk:' + tag] = 'alive'; } catch {} } },
  get(tag) { for (const f of fns()) { if (Object.prototype.hasOwnProperty.call(f, 'atk:' + tag)) return f['atk:' + tag]; } return undefined; },
};
export default memoryJournal('d07-error-stack-accessor', verified('d07-error-stack-accessor', stash));
