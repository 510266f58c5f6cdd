import { describe, expect, test } from 'vitest';
import type { Violation } from '../../model/violation.js';
import { githubAnnotations } from './githubAnnotations.js';
import type { RunReport } from './runReport.js';

const violation: Violation = { code: 'write-ahead', key: 'post-a', step: 28, expected: 'durable authorized, 100%', actual: 'no durable record\nof the key', evidence: {} };
const base = { command: 'check', journal: 'no-fsync', journalSpec: 'no-fsync', violations: [violation], regressionFile: 'reports/regressions/no-fsync/ab12.json' } as unknown as RunReport;

describe('GitHub Actions annotations', () => {
  test('one ::error per violation, on the regression file, escaped as workflow commands require', () => {
    expect(githubAnnotations(base)).toEqual([
      '::error file=reports/regressions/no-fsync/ab12.json,title=durasim%3A write-ahead::write-ahead [post-a] at #28: expected durable authorized, 100%25; actual no durable record%0Aof the key. Replay: npx durasim replay reports/regressions/no-fsync/ab12.json --journal no-fsync',
    ]);
  });

  test('with a tally, one per counterexample; with no regression file, none', () => {
    const tally = { ...base, counterexamples: [{ invariant: 'convergence', verdict: 'liveness', violations: ['convergence at #9: it, never ends'], regressionFile: 'r,1.json', replayCommand: '', faults: 1 }] } as RunReport;
    expect(githubAnnotations(tally)).toEqual(['::error file=r%2C1.json,title=durasim%3A convergence::convergence at #9: it, never ends. Replay: npx durasim replay r,1.json --journal no-fsync']);
    expect(githubAnnotations({ ...base, regressionFile: undefined } as unknown as RunReport)).toEqual([]);
  });
});
