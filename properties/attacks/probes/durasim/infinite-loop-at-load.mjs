// Tries: an infinite synchronous loop at the module's top level, while durasim loads the journal.
// Expected: finding — the journal holds its thread: journal-blocked (exit 3), never a hang of durasim.
import { probe } from '../../lib/probe.mjs';

for (;;);
export default probe('infinite-loop-at-load');
