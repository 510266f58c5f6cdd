// Tries: setTimeout(…, 0) at the module's top level, its callback writing the canary.
// Expected: harmless — at load a timer never fires (docs/adapters.md "What the sandbox does").
import { probe, escapeWrite } from '../../lib/probe.mjs';

setTimeout(() => escapeWrite('timeout-at-load'), 0);
export default probe('timeout-at-load');
