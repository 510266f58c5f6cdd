// Tries: process.hrtime.bigint() (a real monotonic clock in nanoseconds).
// Expected: refused — process.hrtime is listed as not served (docs/adapters.md "Not served").
// API: hrtime
// Revised: served — as process-hrtime: the virtual clock.
import { probe, observe } from '../../lib/probe.mjs';

export default probe('process-hrtime-bigint', () => observe('hrtime.bigint', process.hrtime.bigint()));
