// Tries: Intl's default locale (the runner starts durasim with LANG and LC_ALL de_DE.UTF-8).
// Expected: served — a fixed locale, nothing of the real machine.
// Oracle: the real default locale (passed by the runner).
import { probe, env, leak } from '../../lib/probe.mjs';

export default probe('locale', () => {
  const locale = Intl.NumberFormat().resolvedOptions().locale;
  if (locale === env('ATTACK_REAL_LOCALE')) leak('the real locale', locale);
});
