// d05 — prototypes of iterators that Node's own JavaScript (not V8) defines once per thread and hands
// out only as the prototype of a returned iterator: URLSearchParams' iterator (internal/url), the
// fetch Headers iterator (undici's iteratorMixin), and ReadableStream's async iterator
// (internal/webstreams). None is a property of a global, a constructor or a constructor's .prototype.
// Technique: put(tag) sets an own property 'atk:'+tag on the first of these prototypes that accepts
// it (then the others); get(tag) looks on all three.
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the prototypes
// locked so put fails: ATK-PUT-FAILED), or exit 4 if the write is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

function protos() {
  const out = [];
  try { out.push(Object.getPrototypeOf(new URLSearchParams('a=1').keys())); } catch {}
  try { out.push(Object.getPrototypeOf(new Headers({ a: '1' }).keys())); } catch {}
  try { out.push(Object.getPrototypeOf(new ReadableStream().values())); } catch {}
  return out.filter((p) => p && p !== Object.prototype);
}
export const stash = {
  put(tag) { for (const p of protos()) { try { p['atk:' + tag] = 'alive'; } catch {} } },
  get(tag) { for (const p of protos()) { if (Object.prototype.hasOwnProperty.call(p, 'atk:' + tag)) return p['atk:' + tag]; } return undefined; },
};
export default memoryJournal('d05-internal-iterator-protos', verified('d05-internal-iterator-protos', stash));
