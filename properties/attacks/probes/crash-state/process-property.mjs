// Tries: a marker property on the process object, looked for by the next incarnation.
// Expected: harmless — a new process is a new process object.
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('process-property', () => {
  if (process.attackMarker !== undefined) leak('process.attackMarker survived', process.attackMarker);
  process.attackMarker = `pid ${process.pid}`;
});
