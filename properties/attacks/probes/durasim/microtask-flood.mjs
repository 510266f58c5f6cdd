// Tries: a promise chain that re-queues itself forever: the thread never reaches its event loop.
// Expected: finding — the journal holds its thread: journal-blocked (exit 3).
import { probe } from '../../lib/probe.mjs';

export default probe('microtask-flood', () => {
  const again = () => Promise.resolve().then(again);
  again();
});
