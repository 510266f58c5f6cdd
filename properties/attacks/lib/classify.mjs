// How properties/attacks/run.mjs names the outcome of a probe's two runs. Not a probe.
//
//   refused          both runs exit 4 for an escape (durasim named what the journal called)
//   served           both exit 0, nothing real happened, the probe expected it served (or expected a
//                    refusal but its oracle proves the value it saw was simulated)
//   harmless         both exit 0, nothing real happened, the probe expected nothing to see
//   caught-by-rerun  both exit 4 because a re-run differed (nondeterminism, or module state that survived)
//   finding          both exit 1 or 3 and the probe expected the journal's own bug reported
//   unloadable       both exit 2, durasim saying "Failed to load the journal" and why (nothing ran)
//   silent           anything else: a real effect (canary file, network hit, bait changed, stray file or
//                    process), a real value that reached the journal (its oracle fired) while durasim did not
//                    say exit 4, two different verdicts or traces, exit 5, a watchdog kill, a signal, exit 0
//                    where a refusal or finding was expected, a finding where none was
//
// A probe whose oracle fired (a leaked value) while both runs exit 4 is classed by what durasim said
// (caught-by-rerun or refused), the leak kept in the reason: durasim did not let it pass in silence.
export const OUTCOMES = ['refused', 'served', 'harmless', 'caught-by-rerun', 'finding', 'unloadable', 'silent'];

const RERUN = /run twice|nondetermin|module state (survived|outlived)/i;

/** What a run's summary.json says that must be the same in two runs of one command. */
export function verdictShape(summary) {
  if (!summary) return null;
  return JSON.stringify({
    verdict: summary.verdict,
    exitCode: summary.exitCode,
    violations: (summary.violations ?? []).map((v) => `${v.code} ${v.key ?? ''}`).sort(),
    work: summary.work,
    windows: summary.coverage?.windows,
  });
}

/** @returns {{ outcome: string, why: string, namesApi?: boolean, matches: boolean }} */
export function classify(probe, runs, effects, leaks = []) {
  const [a, b] = runs;
  const text = runs.map((r) => r.output).join('\n');
  const leaked = leaks.length > 0 ? `; the probe saw a real value: ${leaks.join('; ')}` : '';
  const silent = (why) => ({ outcome: 'silent', why: `${why}${leaked}`, matches: false });
  const done = (outcome, why, extra = {}) => ({ outcome, why: `${why}${leaked}`, matches: outcome === probe.expected, ...extra });
  if (effects.length > 0) return silent(`real effect: ${effects.join('; ')}`);
  const killed = runs.find((r) => r.timedOut);
  if (killed) return silent(`killed by the 120 s watchdog (run ${runs.indexOf(killed) + 1})`);
  const signalled = runs.find((r) => r.signal);
  if (signalled) return silent(`ended by ${signalled.signal}`);
  if (a.code !== b.code) return silent(`two different verdicts: exit ${a.code} then exit ${b.code}`);
  if (verdictShape(a.summary) !== verdictShape(b.summary)) return silent(`the two runs differ (summary.json: verdict, violations, steps or fault windows), both exit ${a.code}`);
  const code = a.code;
  if (leaks.length > 0 && code !== 4) return { outcome: 'silent', why: `exit ${code}, and the probe saw a real value: ${leaks.join('; ')}`, matches: false };
  if (code === 4) {
    const said = [a.summary?.sandbox, text].filter(Boolean).join('\n');
    if (RERUN.test(said)) return done('caught-by-rerun', 'exit 4: a re-run differed');
    const api = probe.api ?? [];
    const namesApi = api.length === 0 || api.some((word) => said.toLowerCase().includes(word.toLowerCase()));
    return done('refused', `exit 4 (escape)${namesApi ? '' : `, not naming ${api.join(' or ')}`}`, { namesApi });
  }
  if (code === 0) {
    if (probe.expected === 'served' || probe.expected === 'harmless') return done(probe.expected, 'exit 0, nothing real');
    if (probe.expected === 'refused' && probe.oracle) return { outcome: 'served', why: 'exit 0, nothing real, and the oracle saw no real value (a refusal was expected)', matches: false };
    return silent(`exit 0 where ${probe.expected} was expected`);
  }
  if (code === 1 || code === 3) {
    if (probe.expected === 'finding') return done('finding', `exit ${code}`);
    return silent(`exit ${code} (a finding) where ${probe.expected} was expected`);
  }
  if (code === 2 && runs.every((r) => r.output.includes('Failed to load the journal: '))) return done('unloadable', 'exit 2: durasim named why it could not load the journal');
  return silent(`exit ${code}`);
}
