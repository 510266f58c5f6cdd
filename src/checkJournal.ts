/**
 * A helper for users' own test suites:
 *
 *   test('exactly once', () => checkJournal(myJournal, { runs: 500 }));
 *
 * Replays the journal's stored regressions first, then hunts with generated scenarios; on a
 * failure it saves the counterexample to the regression corpus and throws an error that reads as
 * the failure itself: the violations, the explained trace, and the command that replays it.
 */
import fc from 'fast-check';
import { judge } from '../model/judge.js';
import { describeViolation } from '../model/violation.js';
import type { Scenario } from '../simulator/scenario.js';
import { simulate } from '../simulator/simulate.js';
import { scenarioArbitrary, FAULT_KINDS, type FaultKind } from './arbitraries.js';
import type { JournalAdapter } from './contract.js';
import { loadRegressions, REGRESSIONS_DIR, saveRegression } from './regressions.js';
import { explainText } from './report/explain.js';

export interface CheckJournalOptions {
  runs?: number;
  seed?: number;
  faults?: readonly FaultKind[];
  /** Where stored regressions live and new ones go (default reports/regressions). */
  regressionsDir?: string;
  /** Save a new counterexample to the corpus (default true). */
  saveRegressions?: boolean;
  /** How to name the journal in the replay command (default: its name). */
  journalSpec?: string;
}

export async function checkJournal(journal: JournalAdapter, options: CheckJournalOptions = {}): Promise<void> {
  const dir = options.regressionsDir ?? REGRESSIONS_DIR;
  // allow-ambient: a fresh seed when none is given; it is printed in any failure.
  const seed = options.seed ?? Date.now() % 2_147_483_647;
  const bad = async (scenario: Scenario) => {
    const result = await simulate(journal, scenario);
    const violations = judge(result);
    return violations.length > 0 || result.escapes.length > 0 ? { result, violations } : undefined;
  };
  const fail = (found: NonNullable<Awaited<ReturnType<typeof bad>>>, origin: string, file: string): never => {
    const lines = [
      `durasim found a failure in journal "${journal.name}" (${origin})`,
      ...found.violations.map((v) => `  ${describeViolation(v)}`),
      ...found.result.escapes.map((e) => `  sandbox: worker-${e.pid}#${e.incarnation} ${e.message} (${e.api})`),
      `replay: npx durasim replay ${file} --journal ${options.journalSpec ?? journal.name}`,
      '',
      explainText(found.result, found.violations),
    ];
    throw new Error(lines.join('\n'));
  };
  for (const stored of loadRegressions(journal.name, dir)) {
    const found = await bad(stored.scenario);
    if (found) fail(found, `stored regression ${stored.file}`, stored.file);
  }
  const details = await fc.check(
    fc.asyncProperty(scenarioArbitrary({ faults: options.faults ?? FAULT_KINDS }), async (scenario) => (await bad(scenario)) === undefined),
    { numRuns: options.runs ?? 200, seed },
  );
  if (!details.failed || !details.counterexample) return;
  const scenario = details.counterexample[0];
  const found = await bad(scenario);
  if (!found) throw new Error(`durasim: the counterexample of seed ${seed} passed when replayed — the journal is nondeterministic`);
  const file = options.saveRegressions === false ? '(not saved)' : saveRegression(scenario, { journal: journal.name, invariants: [...new Set(found.violations.map((v) => v.code))], seed }, dir).file;
  fail(found, `seed ${seed}, after ${details.numRuns} runs, shrunk ${details.numShrinks} times`, file);
}
