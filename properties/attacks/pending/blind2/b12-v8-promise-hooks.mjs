// b12 — a V8 promise hook left registered: v8.promiseHooks.onInit(fn) installs fn in the isolate
// (Node's internal/promise_hooks arrays), and it is called for every promise created afterwards in
// the thread — including in the next incarnation. Node's async_hooks.createHook is refused by
// durasim; this is its lower-level sibling.
// Technique: put(tag) registers (once per incarnation) an init hook that closes over this
// incarnation's tags and, whenever any promise is created, copies them into a Set at
// globalThis[Symbol.for('atk.ph')] (re-creating it if it was put back). get(tag) creates a promise
// (firing every hook still installed) and then looks in that Set. A fresh process has no hook.
// Expected of a correct durasim: exit 1 (hooks of a dead incarnation removed/never called), or exit 4
// if v8.promiseHooks is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';
import * as v8 from 'node:v8';

const SLOT = Symbol.for('atk.ph');
const mine = new Set();
let installed = false;
export const stash = {
  put(tag) {
    mine.add(tag);
    if (!installed) {
      const tags = mine;
      v8.promiseHooks.onInit(() => {
        let s = globalThis[SLOT];
        if (!(s instanceof Set)) { s = new Set(); globalThis[SLOT] = s; }
        for (const t of tags) s.add(t);
      });
      installed = true;
    }
  },
  get(tag) {
    void new Promise(() => {});
    const s = globalThis[SLOT];
    return s instanceof Set && s.has(tag) ? 'alive' : undefined;
  },
};
export default memoryJournal('b12-v8-promise-hooks', verified('b12-v8-promise-hooks', stash));
