// Tries: Set.prototype.has patched to answer false for invariant names, on the journal that never fsyncs.
// Expected: finding — the patch must not reach the judge (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const has = Set.prototype.has;
const names = ['write-ahead', 'no-state-skip', 'truthful-outcome', 'one-effect-per-key', 'retry-safe-only', 'convergence', 'journal-error'];
export default probe('set-has-hides-invariants', () => {
  Set.prototype.has = function (key) {
    return names.includes(key) ? false : has.call(this, key);
  };
}, { base: unsynced });
