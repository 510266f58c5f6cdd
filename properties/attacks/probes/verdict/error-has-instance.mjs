// Tries: Error[Symbol.hasInstance] made to answer false, so no error is an Error to instanceof, on the
//   journal that never fsyncs.
// Expected: finding — the patch must not reach durasim (exit 1).
import unsynced from '../../lib/unsynced.mjs';
import { probe } from '../../lib/probe.mjs';

export default probe('error-has-instance', () => {
  Object.defineProperty(Error, Symbol.hasInstance, { configurable: true, value: () => false });
}, { base: unsynced });
