// Tries: process.binding('fs'), Node's raw file-system binding under the fs module, to write a real file.
// Expected: refused — a way around the guarded fs module must be refused by name (README "The sandbox").
// API: binding
import { probe, canary } from '../../lib/probe.mjs';

export default probe('process-binding-fs', () => process.binding('fs').writeFileUtf8(canary('binding'), 'x', 0o1101, 0o644));
