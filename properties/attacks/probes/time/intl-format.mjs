// Tries: Intl.DateTimeFormat#format() of "now" (month and day in UTC).
// Expected: served — Intl.DateTimeFormat#format() reads the virtual clock (docs/adapters.md Path 1).
// Oracle: today's real UTC month and day (passed by the runner) is the real clock.
import { probe, env, leak, observe } from '../../lib/probe.mjs';

export default probe('intl-format', async () => {
  const day = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: '2-digit', day: '2-digit' }).format();
  if (day === env('ATTACK_REAL_DAY')) leak('Intl.DateTimeFormat#format', day);
  await observe('Intl format', day);
});
