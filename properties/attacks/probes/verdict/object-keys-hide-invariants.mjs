// Tries: Object.keys and Object.entries patched to see nothing in an object keyed by invariant names
//   (write-ahead, …: the README's table), on the journal that never fsyncs.
// Expected: finding — the patch must not reach the judge (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

const [keys, entries] = [Object.keys, Object.entries];
const invariantKeyed = (o) => o !== null && typeof o === 'object' && ('write-ahead' in o || 'no-state-skip' in o);
export default probe('object-keys-hide-invariants', () => {
  Object.keys = (o) => (invariantKeyed(o) ? [] : keys(o));
  Object.entries = (o) => (invariantKeyed(o) ? [] : entries(o));
}, { base: unsynced });
