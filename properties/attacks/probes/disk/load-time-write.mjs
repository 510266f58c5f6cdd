// Tries: a real write at the module's top level, while durasim loads the journal.
// Expected: refused — a disk call while loading stays refused (docs/adapters.md, loading).
// API: writeFileSync
import { probe, escapeWrite } from '../../lib/probe.mjs';

escapeWrite('load-time');
export default probe('load-time-write');
