// Tries: Object.prototype.toJSON defined so that JSON of any object with a violations list or a verdict comes
//   out clean, on the journal that never fsyncs.
// Expected: finding — the patch must not reach durasim's results (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

export default probe('object-prototype-to-json', () => {
  Object.defineProperty(Object.prototype, 'toJSON', {
    configurable: true,
    writable: true,
    value() {
      if (!('violations' in this) && !('verdict' in this)) return this;
      const copy = Object.assign(Object.create(null), this);
      return Object.assign(copy, { violations: [], verdict: 'clean', exitCode: 0 });
    },
  });
}, { base: unsynced });
