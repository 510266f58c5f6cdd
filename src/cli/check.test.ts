import { expect, test } from 'vitest';
import { tallyLines } from './check.js';
import type { RunReport } from '../report/runReport.js';

test("the tally's lines say a counterexample saved as found (an interrupted check, a stored regression) as such, never as shrunk", () => {
  const example = (invariant: string, faults: number, notShrunk?: string): NonNullable<RunReport['counterexamples']>[number] => ({ invariant, verdict: 'safety', violations: [], regressionFile: `${invariant}.json`, replayCommand: `npx durasim replay ${invariant}.json`, faults, ...(notShrunk ? { notShrunk } : {}) });
  const report = { tally: { 'write-ahead': 3, 'file-truth': 1 }, counterexamples: [example('write-ahead', 0), example('file-truth', 8, 'the check was interrupted before it was shrunk')] } as unknown as RunReport;
  expect(tallyLines(report)).toEqual([
    'write-ahead: 3 failing runs · shrunk to 0 faults',
    '  replay: npx durasim replay write-ahead.json',
    'file-truth: 1 failing run · saved as found with 8 faults',
    '  replay: npx durasim replay file-truth.json',
  ]);
});
