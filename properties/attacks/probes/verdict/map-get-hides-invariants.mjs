// Tries: Map.prototype.get patched to answer undefined for invariant names (write-ahead, no-state-skip, …),
//   on the journal that never fsyncs.
// Expected: finding — the patch must not reach the judge (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const get = Map.prototype.get;
const names = new Set(['write-ahead', 'no-state-skip', 'truthful-outcome', 'one-effect-per-key', 'retry-safe-only', 'convergence', 'journal-error']);
export default probe('map-get-hides-invariants', () => {
  Map.prototype.get = function (key) {
    return names.has(key) ? undefined : get.call(this, key);
  };
}, { base: unsynced });
