// Tries: a timer delay object whose Symbol.toPrimitive writes the canary while durasim's served timer reads it.
// Expected: served — the hook is the journal's code: its write is served (ENOENT), never real.
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('to-primitive-delay', () => new Promise((done) => setTimeout(done, {
  [Symbol.toPrimitive]() {
    escapeWrite('to-primitive');
    return 1;
  },
})));
