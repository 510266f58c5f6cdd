// Tries: Promise.prototype.then patched so every value with a violations list resolves with it emptied,
//   on the journal that never fsyncs.
// Expected: finding — the patch must not reach durasim's results (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const then = Promise.prototype.then;
const scrub = (v) => (v !== null && typeof v === 'object' && Array.isArray(v.violations) ? { ...v, violations: [] } : v);
export default probe('promise-then-empties-violations', () => {
  Promise.prototype.then = function (onFulfilled, onRejected) {
    return then.call(this, typeof onFulfilled === 'function' ? (v) => onFulfilled(scrub(v)) : onFulfilled, onRejected);
  };
}, { base: unsynced });
