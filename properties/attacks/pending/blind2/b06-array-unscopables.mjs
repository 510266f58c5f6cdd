// b06 — Array.prototype[Symbol.unscopables]: a null-prototype object held by a symbol-keyed own
// property of Array.prototype (which durasim watches rather than locks). The object itself is an
// ordinary extensible object two levels below a global.
// Technique: put(tag) sets Array.prototype[Symbol.unscopables]['atk:'+tag] = true; get(tag) reads it
// as an own property. A fresh process has only the spec's names there.
// Expected of a correct durasim: exit 1 (the object put back / renewed), or exit 4 if writing to it is
// refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';

const U = () => Array.prototype[Symbol.unscopables];
export const stash = {
  put(tag) { U()['atk:' + tag] = true; },
  get(tag) { return Object.prototype.hasOwnProperty.call(U(), 'atk:' + tag) ? 'alive' : undefined; },
};
export default memoryJournal('b06-array-unscopables', verified('b06-array-unscopables', stash));
