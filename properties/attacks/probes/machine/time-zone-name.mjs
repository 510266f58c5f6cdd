// Tries: Intl's resolved time zone (the runner starts durasim with TZ=Pacific/Chatham).
// Expected: served — a fixed time zone, nothing of the real machine.
// Limit: README "Known limits": the machine's time zone is not guarded.
// Oracle: the real TZ (passed by the runner).
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('time-zone-name', () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone === env('ATTACK_REAL_TZ')) leak('the real time zone', zone);
});
