// Tries: a marker on the Math namespace object, looked for by the next incarnation.
// Expected: harmless — a new process starts with fresh builtins.
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('math-marker', () => {
  if (Math.attackMarker !== undefined) leak('Math marker survived', Math.attackMarker);
  Math.attackMarker = `pid ${process.pid}`;
});
