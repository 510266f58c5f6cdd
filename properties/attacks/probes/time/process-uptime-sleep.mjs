// Tries: process.uptime() around a 5 s virtual sleep.
// Expected: refused — a clock read not in the served list (README "The sandbox": the globals that read the clock).
// API: uptime
// Oracle: less than 4 s between the two reads across a 5 s virtual sleep is a real clock.
import { setTimeout as sleep } from 'node:timers/promises';
import { probe, leak } from '../../lib/probe.mjs';

export default probe('process-uptime-sleep', async () => {
  const before = process.uptime();
  await sleep(5000);
  const elapsed = process.uptime() - before;
  if (elapsed < 4) leak('process.uptime moved less than the virtual sleep', elapsed);
});
