// e02 — key order as memory: delete an enumerable property of an object durasim tracks and assign
// it again with the very same value. Nothing is added, nothing is missing, every value is the same:
// only Object.keys' order has changed (the key comes last). put(tag) moves `name` to the end of
// process.release; get(tag) reads whether it is last.
// Expected of a correct durasim: exit 1 (the baseline's order back at the next incarnation) or 4.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

const target = () => process.release;
export const stash = {
  put() { const t = target(); const v = t.name; delete t.name; t.name = v; },
  get() { const keys = Object.keys(target()); return keys[keys.length - 1] === 'name' && keys.length > 1 ? 'alive' : undefined; },
};
export default memoryJournal('e02-key-order', verified('e02-key-order', stash));
