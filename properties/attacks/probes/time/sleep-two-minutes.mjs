// Tries: a two-minute sleep on the global setTimeout in every incarnation.
// Expected: served — virtual time: two minutes pass in no real time (docs/adapters.md Path 1). A real timer
//   would hold the run past the runner's 120 s watchdog.
import { probe } from '../../lib/probe.mjs';

export default probe('sleep-two-minutes', () => new Promise((done) => setTimeout(done, 120_000)));
