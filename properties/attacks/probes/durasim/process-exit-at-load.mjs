// Tries: process.exit(5) at the module's top level, while durasim loads the journal (5 is durasim's own
//   "I failed" code).
// Expected: finding — the journal's process dies before it works: the journal's own failure, never exit 5.
// Revised: unloadable — no journal exists until its module has loaded: durasim says "Failed to load the
//   journal" naming the process.exit(5) (exit 2), never exit 5.
import { probe } from '../../lib/probe.mjs';

process.exit(5);
export default probe('process-exit-at-load');
