// Tries: Intl.DateTimeFormat#formatToParts() of "now" (month and day in UTC), the sibling of format().
// Expected: served — a clock read is served by the virtual clock (README "The sandbox": the globals that read the clock).
// Oracle: today's real UTC month and day (passed by the runner) is the real clock.
import { probe, env, leak, observe } from '../../lib/probe.mjs';

export default probe('intl-format-to-parts', async () => {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: '2-digit', day: '2-digit' }).formatToParts();
  const day = parts.map((p) => p.value).join('');
  if (day === env('ATTACK_REAL_DAY')) leak('Intl.DateTimeFormat#formatToParts', day);
  await observe('Intl formatToParts', day);
});
