import { expect, test } from 'vitest';
import { shrinkLine, tallyLines } from './checkLines.js';
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

test('a shrink the interrupt stopped says so', () => {
  const shrink = { attempts: 12, steps: 3, exhausted: false, ms: 400, fromFaults: 6 };
  expect(shrinkLine(shrink, 4)).toBe('shrunk 3 times (12 candidates tried in 0.4 s, faults 6 → 4)');
  expect(shrinkLine({ ...shrink, stopped: true }, 4)).toBe('shrunk 3 times (12 candidates tried in 0.4 s, faults 6 → 4); stopped there by the interrupt');
});
