// g06 — InternalRecordableHistogram.prototype of internal/histogram. perf_hooks.createHistogram() returns an
// instance of this class, which is not exported (perf_hooks has no RecordableHistogram export; the object's
// `constructor` names RecordableHistogram, one level up). Its prototype is one object per thread, reached only
// through the returned histogram.
// Technique: put(tag) keeps a Map in a non-enumerable own property `atkG06` of the prototype and sets
// tag -> 'alive'; get(tag) reaches the prototype from a fresh histogram and reads the Map.
// Node: 20, 22, 24 (see LIST.md for the self-test).
// Expected of a correct durasim: exit 1 (the Map gone or emptied at the next incarnation, or the prototype frozen
// so put fails: ATK-PUT-FAILED), or exit 4 if perf_hooks.createHistogram is refused.
import { memoryJournal } from '../_memjournal.mjs';
import { verified } from '../blind2/_verify.mjs';
import { createHistogram } from 'node:perf_hooks';

function proto() { return Object.getPrototypeOf(createHistogram()); }
export const stash = {
  put(tag) {
    const p = proto();
    if (!Object.prototype.hasOwnProperty.call(p, 'atkG06')) {
      Object.defineProperty(p, 'atkG06', { value: new Map(), enumerable: false, writable: true, configurable: true });
    }
    p.atkG06.set(tag, 'alive');
  },
  get(tag) {
    const p = proto();
    return Object.prototype.hasOwnProperty.call(p, 'atkG06') && p.atkG06 instanceof Map ? p.atkG06.get(tag) : undefined;
  },
};
export default memoryJournal('g06-histogram-internal-proto', verified('g06-histogram-internal-proto', stash));
