// Tries: the async iterator setInterval of timers/promises.
// Expected: refused — listed as not served (docs/adapters.md "Not served").
// API: setInterval
import { setInterval } from 'node:timers/promises';
import { probe } from '../../lib/probe.mjs';

export default probe('timers-promises-set-interval', async () => {
  for await (const tick of setInterval(100)) break;
});
