/**
 * The committed regression corpus (reports/regressions/<journal>/<hash>.json), replayed on every
 * test run: a fixed bug stays fixed. Scenarios stored for a mutant must still fail with their
 * recorded invariant; those stored for a correct journal (the reference, the coordinated one) must
 * pass: each records a finding that was a bug of that journal, or of the judge, since fixed.
 */
import { describe, expect, test } from 'vitest';
import { judge } from '../model/judge.js';
import { mutantNamed } from '../src/journals/mutants/index.js';
import { referenceJournal } from '../src/journals/reference.js';
import { coordinatedJournal } from '../src/journals/coordinated.js';

const CORRECT: Record<string, Parameters<typeof simulate>[0]> = { reference: referenceJournal, coordinated: coordinatedJournal };
import { loadRegressions, regressionJournals } from '../src/regressions.js';
import { simulate } from '../simulator/simulate.js';

const ROOT = new URL('../reports/regressions', import.meta.url).pathname;
const journals = regressionJournals(ROOT);

describe('the regression corpus', () => {
  test('holds scenarios for the reference journal and for every mutant', () => {
    expect(journals).toContain('reference');
    expect(journals.length).toBeGreaterThanOrEqual(13);
  });

  for (const name of journals) {
    const stored = loadRegressions(name, ROOT);
    test.each(stored.map((r) => [r.file.slice(ROOT.length + 1), r] as const))('%s', async (_file, regression) => {
      const correct = CORRECT[name];
      if (correct !== undefined) {
        expect(judge(await simulate(correct, regression.scenario))).toEqual([]);
        return;
      }
      const mutant = mutantNamed(name);
      expect(mutant, `no bundled journal named ${name}`).toBeDefined();
      const fired = new Set(judge(await simulate(mutant!.journal, regression.scenario)).map((v) => v.code));
      expect(regression.info.invariants.length).toBeGreaterThan(0);
      expect(regression.info.invariants.filter((code) => fired.has(code)), `recorded ${regression.info.invariants.join(', ')}; fired ${[...fired].join(', ')}`).not.toEqual([]);
    });
  }
});
