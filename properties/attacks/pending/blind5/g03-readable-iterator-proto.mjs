// g03 — prototype of Readable's async iterators. Readable.prototype[Symbol.asyncIterator]() returns a generator
// object of the module-level async generator function createAsyncIterator (internal/streams/readable, not
// exported); its prototype is createAsyncIterator.prototype, one object per thread, shared by every stream
// iterator (for await over any Readable, Readable.prototype.iterator()). Only the returned iterator leads to it.
// Technique: put(tag) defines a non-enumerable own property 'atk:'+tag on Object.getPrototypeOf(iterator);
// get(tag) reaches the prototype again from a fresh stream's iterator. The stream is destroyed at once; the
// generator is never started.
// Node: 20, 22, 24 (see LIST.md for the self-test).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the prototype frozen so put
// fails: ATK-PUT-FAILED), or exit 4 if node:stream is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import { Readable } from 'node:stream';

function proto() {
  const r = new Readable({ read() {} });
  try { return Object.getPrototypeOf(r[Symbol.asyncIterator]()); } finally { r.destroy(); }
}
export const stash = {
  put(tag) { Object.defineProperty(proto(), 'atk:' + tag, { value: 'alive', enumerable: false, writable: true, configurable: true }); },
  get(tag) { const p = proto(); return Object.prototype.hasOwnProperty.call(p, 'atk:' + tag) ? p['atk:' + tag] : undefined; },
};
export default memoryJournal('g03-readable-iterator-proto', verified('g03-readable-iterator-proto', stash));
