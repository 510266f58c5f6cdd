// Tries: a getter for "then" on Object.prototype writing the canary: every await of a plain object, durasim's
//   included, reads it.
// Expected: harmless — journal code run inside durasim's work must not reach the real disk.
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('object-prototype-then', () => {
  Object.defineProperty(Object.prototype, 'then', {
    configurable: true,
    get() {
      escapeWrite('prototype-then');
      return undefined;
    },
  });
});
