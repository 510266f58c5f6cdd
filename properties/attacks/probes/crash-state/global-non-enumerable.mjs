// Tries: a marker on globalThis defined non-enumerably (Object.defineProperty), looked for by the next incarnation.
// Expected: harmless — a new process starts with fresh globals.
// Limit: README "Known limits": globals defined non-enumerably are not guarded.
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

export default probe('global-non-enumerable', () => {
  if (globalThis.attackHidden !== undefined) leak('non-enumerable global survived', globalThis.attackHidden);
  Object.defineProperty(globalThis, 'attackHidden', { value: `pid ${process.pid}`, enumerable: false, configurable: true });
});
