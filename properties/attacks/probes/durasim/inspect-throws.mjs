// Tries: an inspect() that always throws, on the correct journal.
// Expected: finding — durasim reports "inspect() threw" beside what its empty answer breaks (docs/adapters.md), never exit 5.
import { probe } from '../../lib/probe.mjs';

export default probe('inspect-throws', null, { inspect: () => { throw new Error('attack: inspect refuses'); } });
