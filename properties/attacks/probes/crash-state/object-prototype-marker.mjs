// Tries: a marker on Object.prototype (non-enumerable), looked for by the next incarnation.
// Expected: harmless — a new process starts with fresh builtins.
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('object-prototype-marker', () => {
  if (Object.prototype.attackMarker !== undefined) leak('Object.prototype marker survived', Object.prototype.attackMarker);
  Object.defineProperty(Object.prototype, 'attackMarker', { value: `pid ${process.pid}`, configurable: true, writable: true });
});
