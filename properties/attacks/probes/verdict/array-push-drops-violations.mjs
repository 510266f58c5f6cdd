// Tries: Array.prototype.push patched to drop objects shaped like durasim's violations ({ code, key, step,
//   expected, actual, evidence }, README), on the journal that never fsyncs.
// Expected: finding — the patch must not reach the judge: the write-ahead finding stands (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const push = Array.prototype.push;
const violation = (item) => item !== null && typeof item === 'object' && 'code' in item && 'evidence' in item;
export default probe('array-push-drops-violations', () => {
  Array.prototype.push = function (...items) {
    return push.apply(this, items.filter((item) => !violation(item)));
  };
}, { base: unsynced });
