// Tries: a marker on globalThis under a registered symbol key (Symbol.for), looked for by the next incarnation.
// Expected: harmless — a new process starts with fresh globals (docs/adapters.md).
// Oracle: a marker found at the start of run() came from an earlier incarnation.
import { probe, leak } from '../../lib/probe.mjs';

const key = Symbol.for('attack.marker');
export default probe('global-symbol-key', () => {
  if (globalThis[key] !== undefined) leak('symbol-keyed global survived', globalThis[key]);
  globalThis[key] = `pid ${process.pid}`;
});
