// Tries: a marker on Array.prototype (non-enumerable), looked for by the next incarnation.
// Expected: harmless — a new process starts with fresh builtins.
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('array-prototype-marker', () => {
  if ([].attackMarker !== undefined) leak('Array.prototype marker survived', [].attackMarker);
  Object.defineProperty(Array.prototype, 'attackMarker', { value: `pid ${process.pid}`, configurable: true, writable: true });
});
