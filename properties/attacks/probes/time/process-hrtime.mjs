// Tries: process.hrtime() (a real monotonic clock).
// Expected: refused — process.hrtime is listed as not served (docs/adapters.md "Not served").
// API: hrtime
// Revised: served — docs/adapters.md serves process.hrtime() from the virtual clock, counted from the
//   incarnation's start; the first expectation quoted a docs line that was wrong then (fixed in 456b0f0).
import { probe, observe } from '../../lib/probe.mjs';

export default probe('process-hrtime', () => observe('hrtime', process.hrtime().join('.')));
