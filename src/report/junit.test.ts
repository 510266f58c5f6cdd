import { describe, expect, test } from 'vitest';
import { INVARIANTS } from '../../model/violation.js';
import { junitXml } from './junit.js';
import type { RunReport } from './runReport.js';

const base: RunReport = { command: 'check', journal: 'j', journalSpec: 'j.ts', runsExecuted: 1, elapsedMs: 10, verdict: 'clean', exitCode: 0, violations: [] };
const violation = { code: 'write-ahead' as const, key: 'post-a', step: 3, expected: 'e', actual: 'a', evidence: {} };
const cases = (xml: string) => [...xml.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>(<failure|<skipped|<\/testcase>)/g)].map((m) => [m[1], m[2] === '<failure' ? 'failed' : m[2] === '<skipped' ? 'skipped' : 'passed']);

describe('junit.xml', () => {
  test('a clean check to the end of its budget: every invariant passed', () => {
    const xml = junitXml({ ...base, runsExecuted: 500 });
    expect(cases(xml).every(([, state]) => state === 'passed')).toBe(true);
    expect(xml).toContain(`tests="${INVARIANTS.length + 1}" failures="0" skipped="0"`);
  });

  test('a check stopped at its first finding: the broken invariant failed, the others skipped, never passed', () => {
    const xml = junitXml({ ...base, verdict: 'safety', exitCode: 1, violations: [violation] });
    const states = Object.fromEntries(cases(xml));
    expect(states['write-ahead']).toBe('failed');
    expect(states['single-flight']).toBe('skipped');
    expect(xml).toContain('not judged to the end: the check stopped at its first finding, after 1 run (--tally runs the whole budget)');
    expect(xml).toContain(`failures="1" skipped="${INVARIANTS.length - 1}"`);
  });

  test('invariants left out by --invariants are skipped; --tally judges the rest to the end', () => {
    const states = Object.fromEntries(cases(junitXml({ ...base, runsExecuted: 300, invariantsJudged: ['write-ahead'] })));
    expect(states['write-ahead']).toBe('passed');
    expect(states['single-flight']).toBe('skipped');
    const tallied = Object.fromEntries(cases(junitXml({ ...base, runsExecuted: 300, verdict: 'safety', violations: [violation], tally: { 'write-ahead': 4 } })));
    expect(tallied['single-flight']).toBe('passed');
  });
});
