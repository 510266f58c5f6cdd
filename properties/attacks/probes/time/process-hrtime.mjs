// Tries: process.hrtime() (a real monotonic clock).
// Expected: refused — process.hrtime is listed as not served (docs/adapters.md "Not served").
// API: hrtime
import { probe, observe } from '../../lib/probe.mjs';

export default probe('process-hrtime', () => observe('hrtime', process.hrtime().join('.')));
