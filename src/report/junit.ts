/** junit.xml: one test case per invariant (and one for the sandbox), so CI dashboards show what failed. */
import { INVARIANTS, describeViolation } from '../../model/violation.js';
import type { RunReport } from './runReport.js';

const xml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);

export function junitXml(report: RunReport): string {
  const cases = INVARIANTS.map((invariant) => {
    const found = report.violations.filter((v) => v.code === invariant.code);
    const body = found.length === 0 ? '' : `<failure message="${xml(describeViolation(found[0] as (typeof found)[number]))}" type="${invariant.kind}">${xml(found.map(describeViolation).join('\n'))}${report.replayCommand ? xml(`\nreplay: ${report.replayCommand}`) : ''}</failure>`;
    return `    <testcase classname="durasim.${xml(report.journal)}" name="${invariant.code}" time="0">${body}</testcase>`;
  });
  const sandboxBody = report.sandbox ? `<failure message="${xml(report.sandbox)}" type="sandbox"/>` : '';
  cases.push(`    <testcase classname="durasim.${xml(report.journal)}" name="determinism-and-sandbox" time="0">${sandboxBody}</testcase>`);
  const failures = new Set(report.violations.map((v) => v.code)).size + (report.sandbox ? 1 : 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="durasim" tests="${cases.length}" failures="${failures}" time="${(report.elapsedMs / 1000).toFixed(3)}">
  <testsuite name="durasim ${xml(report.command)} ${xml(report.journal)}" tests="${cases.length}" failures="${failures}" time="${(report.elapsedMs / 1000).toFixed(3)}">
    <properties><property name="seed" value="${report.seed ?? ''}"/><property name="runs" value="${report.runsExecuted}"/></properties>
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
