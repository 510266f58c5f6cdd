// Tries: a marker left on globalThis (a plain enumerable property) by one incarnation, looked for by the next
//   (a restart, a second worker, or the next scenario in the same thread).
// Expected: harmless — what a journal leaves on globalThis is removed at every incarnation start (docs/adapters.md).
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('global-enumerable', () => {
  if (globalThis.attackMarker !== undefined) leak('globalThis.attackMarker survived', globalThis.attackMarker);
  globalThis.attackMarker = `pid ${process.pid}`;
});
