// Tries: new Date().getHours() against getUTCHours() (local time under TZ=Pacific/Chatham, +13:45), fed into
//   the step count.
// Expected: served — a fixed time zone, nothing of the real machine.
// Limit: README "Known limits": the machine's time zone (Date#getHours) is not guarded.
// Oracle: the real zone's offset (passed by the runner) from getTimezoneOffset.
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('date-get-hours', () => {
  const date = new Date();
  if (String(date.getTimezoneOffset()) === env('ATTACK_REAL_TZ_OFFSET')) leak('the real time zone offset', date.getTimezoneOffset());
});
