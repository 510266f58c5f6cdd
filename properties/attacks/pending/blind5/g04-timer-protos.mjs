// g04 — Timeout.prototype and Immediate.prototype, the classes of internal/timers. setTimeout/setInterval
// return a Timeout and setImmediate an Immediate; neither class is exported by node:timers nor a global, so
// their prototypes (one per thread, shared by every timer Node itself makes) are reached only through the
// returned objects.
// Technique: put(tag) defines a non-enumerable own property 'atk:'+tag on both prototypes; get(tag) looks on
// either. The timers used to reach them are cleared (and unref'd) at once and never fire.
// Node: 20, 22, 24 (see LIST.md for the self-test).
// Expected of a correct durasim: exit 1 (property gone at the next incarnation, or the prototypes frozen so put
// fails: ATK-PUT-FAILED; served timer functions whose objects have another prototype also end in exit 1),
// or exit 4 if the timer functions are refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

function protos() {
  const out = [];
  try {
    const t = setTimeout(() => {}, 2147480000);
    try { t?.unref?.(); } catch {}
    clearTimeout(t);
    if (t && typeof t === 'object') out.push(Object.getPrototypeOf(t));
  } catch {}
  try {
    const i = setImmediate(() => {});
    clearImmediate(i);
    if (i && typeof i === 'object') out.push(Object.getPrototypeOf(i));
  } catch {}
  return out.filter((p) => p && p !== Object.prototype);
}
export const stash = {
  put(tag) {
    let n = 0;
    for (const p of protos()) {
      try { Object.defineProperty(p, 'atk:' + tag, { value: 'alive', enumerable: false, writable: true, configurable: true }); n++; } catch {}
    }
    if (n === 0) throw new Error('no timer prototype took the mark');
  },
  get(tag) {
    for (const p of protos()) if (Object.prototype.hasOwnProperty.call(p, 'atk:' + tag)) return p['atk:' + tag];
    return undefined;
  },
};
export default memoryJournal('g04-timer-protos', verified('g04-timer-protos', stash));
