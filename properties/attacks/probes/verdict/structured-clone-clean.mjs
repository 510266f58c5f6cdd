// Tries: globalThis.structuredClone replaced by one that empties violations lists, on the journal that never fsyncs.
// Expected: finding — the journal's globals must not reach durasim (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const clone = structuredClone;
export default probe('structured-clone-clean', () => {
  globalThis.structuredClone = (v, options) => {
    const copy = clone(v, options);
    if (copy !== null && typeof copy === 'object' && Array.isArray(copy.violations)) copy.violations = [];
    return copy;
  };
}, { base: unsynced });
