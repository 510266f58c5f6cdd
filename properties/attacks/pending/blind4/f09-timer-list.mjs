// f09 — the timers' duration lists: every pending Timeout of the same duration is linked into one
// TimersList (internal/timers' module-level timerListMap), through _idlePrev/_idleNext. A timer made in one
// incarnation and never cleared stays linked there, and any new timer of that duration leads to it.
// Technique: put(tag) creates an unref'd setTimeout of an odd, very long duration (2147480001 ms, ~24.8 days:
// never fires, keeps nothing alive) with an own property atkF09 = tag. get(tag) creates a probe timer of the
// same duration, walks the circular list through _idleNext for a timer with that tag, and clears the probe.
// Timers come from node:timers (falling back to the global setTimeout).
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the crashed incarnation's timers cancelled, or its timers not
// real), or exit 4 if the timers are refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import * as timers from 'node:timers';

const D = 2147480001;
const st = typeof timers.setTimeout === 'function' ? timers.setTimeout : globalThis.setTimeout;
const ct = typeof timers.clearTimeout === 'function' ? timers.clearTimeout : globalThis.clearTimeout;
const noop = () => {};
export const stash = {
  put(tag) {
    const t = st(noop, D);
    t.atkF09 = tag;
    t.unref?.();
  },
  get(tag) {
    const p = st(noop, D);
    try {
      p.unref?.();
      let n = p._idleNext;
      for (let i = 0; n && n !== p && i < 1e6; i++, n = n._idleNext) if (n.atkF09 === tag) return 'alive';
      return undefined;
    } finally { ct(p); }
  },
};
export default memoryJournal('f09-timer-list', verified('f09-timer-list', stash));
