/**
 * The committed regression corpus (reports/regressions/<journal>/<hash>.json), replayed on every
 * test run: a fixed bug stays fixed. Scenarios stored for a mutant must still fail with their
 * recorded invariant; those stored for the reference journal must pass.
 */
import { describe, expect, test } from 'vitest';
import { judge } from '../model/judge.js';
import { mutantNamed } from '../src/journals/mutants/index.js';
import { referenceJournal } from '../src/journals/reference.js';
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
      if (name === 'reference') {
        expect(judge(await simulate(referenceJournal, regression.scenario))).toEqual([]);
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
