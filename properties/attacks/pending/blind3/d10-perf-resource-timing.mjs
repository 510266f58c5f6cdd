// d10 — the performance timeline's RESOURCE buffer (internal/perf/resource_timing's
// resourceTimingBuffer), a different module-level array from the mark buffer b02 used: it is filled
// by performance.markResourceTiming() (what undici's fetch calls) and emptied only by
// performance.clearResourceTimings(), never by clearMarks()/clearMeasures().
// Technique: put(tag) calls performance.markResourceTiming(timingInfo, 'https://atk.invalid/<tag>',
// 'other', globalThis, '', {}, 200, ''); get(tag) asks performance.getEntriesByName(url, 'resource').
// Node: 20, 22, 24 (self-test passes on all three).
// Expected of a correct durasim: exit 1 (the timeline emptied, resource entries too, at each
// incarnation), or exit 4 if markResourceTiming is refused by name.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';

const url = (tag) => 'https://atk.invalid/' + encodeURIComponent(String(tag));
const timing = () => ({ startTime: 0, endTime: 1, finalServiceWorkerStartTime: 0, redirectStartTime: 0, redirectEndTime: 0,
  postRedirectStartTime: 0, finalConnectionTimingInfo: null, finalNetworkRequestStartTime: 0, finalNetworkResponseStartTime: 0,
  encodedBodySize: 0, decodedBodySize: 0 });
export const stash = {
  put(tag) { performance.markResourceTiming(timing(), url(tag), 'other', globalThis, '', {}, 200, ''); },
  get(tag) { return performance.getEntriesByName(url(tag), 'resource').length > 0 ? 'alive' : undefined; },
};
export default memoryJournal('d10-perf-resource-timing', verified('d10-perf-resource-timing', stash));
