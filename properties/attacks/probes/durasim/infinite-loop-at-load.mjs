// Tries: an infinite synchronous loop at the module's top level, while durasim loads the journal.
// Expected: finding — the journal holds its thread: journal-blocked (exit 3), never a hang of durasim.
// Revised: unloadable — no journal exists until its module has loaded: durasim says "Failed to load the
//   journal: … kept its thread for 5 s …" (exit 2) in about 5 s, never a hang and never exit 5.
import { probe } from '../../lib/probe.mjs';

for (;;);
export default probe('infinite-loop-at-load');
