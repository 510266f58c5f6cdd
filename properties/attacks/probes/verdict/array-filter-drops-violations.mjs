// Tries: Array.prototype.filter patched to return [] from arrays holding violation-shaped objects, on the
//   journal that never fsyncs.
// Expected: finding — the patch must not reach the judge (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const filter = Array.prototype.filter;
const violation = (item) => item !== null && typeof item === 'object' && 'code' in item && 'evidence' in item;
export default probe('array-filter-drops-violations', () => {
  Array.prototype.filter = function (...args) {
    const kept = filter.apply(this, args);
    return kept.some(violation) ? [] : kept;
  };
}, { base: unsynced });
