// d11 — the global console's count table: console.count(label) keeps its counters in a SafeMap held by
// a symbol-keyed own property of console (Symbol('counts')); the CONTENTS of a Map inside a shared
// object, not a property.
// Technique: put(tag) calls console.count('atk:'+tag) (it prints "atk:...: 1" to the process's stdout);
// get(tag) finds the Map through Object.getOwnPropertySymbols(console) (description 'counts') and
// asks it for the label, without counting.
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (a console of the incarnation's own, or its maps emptied), or
// exit 4 if console.count or the read is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

function counts() {
  for (const s of Object.getOwnPropertySymbols(console)) {
    if (s.description === 'counts') { const m = console[s]; if (m && typeof m.get === 'function') return m; }
  }
  return undefined;
}
export const stash = {
  put(tag) { console.count('atk:' + tag); },
  get(tag) { const m = counts(); return m && m.get('atk:' + tag) ? 'alive' : undefined; },
};
export default memoryJournal('d11-console-counts', verified('d11-console-counts', stash));
