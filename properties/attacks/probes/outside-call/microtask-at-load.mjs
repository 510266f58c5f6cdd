// Tries: queueMicrotask at the module's top level whose callback writes the canary for real: it runs after the
//   module's body, inside durasim's loading code.
// Expected: refused — a disk call while loading stays refused (docs/adapters.md, loading).
// API: writeFileSync
import { probe, escapeWrite } from '../../lib/probe.mjs';

queueMicrotask(() => escapeWrite('microtask-at-load'));
export default probe('microtask-at-load');
