// Tries: setImmediate at the module's top level, its callback writing the canary.
// Expected: harmless — at load a timer never fires (docs/adapters.md "What the sandbox does").
import { probe, escapeWrite } from '../../lib/probe.mjs';

setImmediate(() => escapeWrite('immediate-at-load'));
export default probe('immediate-at-load');
