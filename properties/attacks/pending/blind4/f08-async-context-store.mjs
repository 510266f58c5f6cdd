// f08 — the async context: AsyncLocalStorage#enterWith(store) puts the store into the current async
// context (Node 24: an AsyncContextFrame Map held in V8's continuation-preserved embedder data, which every
// promise reaction and async resource created afterwards inherits; Node 20/22: a Symbol(kResourceStore)
// property on the current async resource, copied by an init hook onto every resource created from it).
// Whatever durasim runs later in that continuation (its scheduler, the next incarnation) inherits it,
// and it can be read without the ALS instance: a fresh AsyncResource carries the frame (Symbol(context_frame))
// or the store (Symbol(kResourceStore)) as own symbol properties.
// Technique: the store is { atkF08: Set of tags }. put(tag) adds the tag to the store visible in the current
// context if there is one, else enterWith a new one holding the tag. get(tag) scans the own symbol
// properties of `new AsyncResource('atk-f08-probe')` (frame Maps' values, or direct stores).
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the next incarnation runs in a context that does not descend from
// the crashed one), or exit 4 if async_hooks is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';

function stores() {
  const out = [];
  const r = new AsyncResource('atk-f08-probe');
  for (const s of Object.getOwnPropertySymbols(r)) {
    const v = r[s];
    // The frame is a primordials SafeMap (null-prototype chain: not instanceof Map), so read it as a Map.
    let vals;
    try { vals = [...Map.prototype.values.call(v)]; } catch { vals = [v]; }
    out.push(...vals);
  }
  return out.filter((x) => x && typeof x === 'object' && x.atkF08 instanceof Set);
}
export const stash = {
  put(tag) {
    const found = stores();
    if (found.length) { for (const s of found) s.atkF08.add(tag); return; }
    new AsyncLocalStorage().enterWith({ atkF08: new Set([tag]) });
  },
  get(tag) { return stores().some((s) => s.atkF08.has(tag)) ? 'alive' : undefined; },
};
export default memoryJournal('f08-async-context-store', verified('f08-async-context-store', stash));
