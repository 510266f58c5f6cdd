// b07 — a hidden intrinsic of Intl: %IntlSegmentsPrototype% (the prototype of what
// Intl.Segmenter#segment returns) and, failing that, %IntlSegmentIteratorPrototype%. Neither is a
// property of any global, so a walk from globalThis and the constructors' .prototype never meets them.
// Technique: put(tag) assigns a string property 'atk:'+tag on the first of these prototypes that
// accepts it; get(tag) looks for it (own property) on both. A fresh process has none.
// Expected of a correct durasim: exit 1 (property gone after a crash, or the prototypes locked so
// put fails — ATK-PUT-FAILED in the trace), or exit 4 if the write is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';

function protos() {
  const segs = new Intl.Segmenter('en').segment('ab');
  return [Object.getPrototypeOf(segs), Object.getPrototypeOf(segs[Symbol.iterator]())];
}
export const stash = {
  put(tag) {
    let lastErr;
    for (const p of protos()) {
      try { p['atk:' + tag] = 'alive'; if (Object.prototype.hasOwnProperty.call(p, 'atk:' + tag)) return; } catch (e) { lastErr = e; }
    }
    throw lastErr ?? new Error('no hidden prototype took the property');
  },
  get(tag) {
    for (const p of protos()) if (Object.prototype.hasOwnProperty.call(p, 'atk:' + tag)) return p['atk:' + tag];
    return undefined;
  },
};
export default memoryJournal('b07-intl-hidden-intrinsic', verified('b07-intl-hidden-intrinsic', stash));
