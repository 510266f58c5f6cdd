// b02 — the performance timeline's mark buffer (Node's internal/perf module keeps every
// performance.mark() in a module-level array until clearMarks()).
// Technique: put(tag) calls performance.mark('atk:'+tag); get(tag) looks it up with
// performance.getEntriesByName('atk:'+tag, 'mark'). A fresh process has an empty timeline.
// Expected of a correct durasim: exit 1 (marks gone after a crash), or exit 4 if performance.mark is
// refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from './_verify.mjs';

export const stash = {
  put(tag) { performance.mark('atk:' + tag); },
  get(tag) { return performance.getEntriesByName('atk:' + tag, 'mark').length > 0 ? 'alive' : undefined; },
};
export default memoryJournal('b02-perf-mark-buffer', verified('b02-perf-mark-buffer', stash));
