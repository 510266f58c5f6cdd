// Tries: Array.prototype.flatMap patched to drop violation-shaped results (invariants returning lists of
//   violations are flattened somewhere), on the journal that never fsyncs.
// Expected: finding — the patch must not reach the judge (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const flatMap = Array.prototype.flatMap;
const violation = (item) => item !== null && typeof item === 'object' && 'code' in item && 'evidence' in item;
export default probe('array-flat-map-drops-violations', () => {
  Array.prototype.flatMap = function (...args) {
    return flatMap.apply(this, args).filter((item) => !violation(item));
  };
}, { base: unsynced });
