// Tries: fs reached through process.getBuiltinModule('fs') instead of an import.
// Expected: served — the module is guarded whole, however it is reached (docs/adapters.md "What the sandbox does").
import { probe, canary } from '../../lib/probe.mjs';

export default probe('get-builtin-module-fs', () => process.getBuiltinModule('fs').writeFileSync(canary('builtin-module'), 'x'));
