/** junit.xml: one test case per invariant (and one for the sandbox), so CI dashboards show what failed. */
import { INVARIANTS, describeViolation } from '../../model/violation.js';
import type { RunReport } from './runReport.js';

const xml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);

export function junitXml(report: RunReport): string {
  // An invariant not judged (--invariants, --safety-only), or not judged to the end of the budget (the
  // check stopped at its first finding), is skipped, never passed: a dashboard must not count it held.
  const judged = report.invariantsJudged === undefined ? undefined : new Set(report.invariantsJudged);
  const stoppedEarly = report.tally === undefined && (report.violations.length > 0 || report.sandbox !== undefined);
  const skipped = (code: string): string | undefined =>
    judged !== undefined && !judged.has(code) ? 'not judged (--invariants or --safety-only left it out)' : stoppedEarly ? `not judged to the end: the check stopped at its first finding, after ${report.runsExecuted} run${report.runsExecuted === 1 ? '' : 's'} (--tally runs the whole budget)` : undefined;
  const cases = INVARIANTS.map((invariant) => {
    const found = report.violations.filter((v) => v.code === invariant.code);
    const skip = found.length === 0 ? skipped(invariant.code) : undefined;
    if (skip !== undefined) return `    <testcase classname="durasim.${xml(report.journal)}" name="${invariant.code}" time="0"><skipped message="${xml(skip)}"/></testcase>`;
    const body = found.length === 0 ? '' : `<failure message="${xml(describeViolation(found[0] as (typeof found)[number]))}" type="${invariant.kind}">${xml(found.map(describeViolation).join('\n'))}${report.replayCommand ? xml(`\nreplay: ${report.replayCommand}`) : ''}</failure>`;
    return `    <testcase classname="durasim.${xml(report.journal)}" name="${invariant.code}" time="0">${body}</testcase>`;
  });
  const sandboxBody = report.sandbox ? `<failure message="${xml(report.sandbox)}" type="sandbox"/>` : '';
  cases.push(`    <testcase classname="durasim.${xml(report.journal)}" name="determinism-and-sandbox" time="0">${sandboxBody}</testcase>`);
  const failures = new Set(report.violations.map((v) => v.code)).size + (report.sandbox ? 1 : 0);
  const skips = INVARIANTS.filter((i) => !report.violations.some((v) => v.code === i.code) && skipped(i.code) !== undefined).length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="durasim" tests="${cases.length}" failures="${failures}" skipped="${skips}" time="${(report.elapsedMs / 1000).toFixed(3)}">
  <testsuite name="durasim ${xml(report.command)} ${xml(report.journal)}" tests="${cases.length}" failures="${failures}" skipped="${skips}" time="${(report.elapsedMs / 1000).toFixed(3)}">
    <properties><property name="seed" value="${report.seed ?? ''}"/><property name="runs" value="${report.runsExecuted}"/></properties>
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
