// Tries: a real write from inside inspect(), which runs with no process.
// Expected: refused — in inspect() the disk other than its view is refused (docs/adapters.md "What the sandbox does").
// API: writeFileSync
import good from '../../lib/good.mjs';
import { probe, escapeWrite } from '../../lib/probe.mjs';

export default probe('inspect-time-write', null, { inspect: (disk) => (escapeWrite('inspect-time'), good.inspect(disk)) });
