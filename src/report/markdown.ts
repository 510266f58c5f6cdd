/** report.md: the verdict, the violations, the replay command and the explained trace. */
import { causeGroups, describeFolded } from './violationLines.js';
import { explainText } from './explain.js';
import { boundLines } from './boundHint.js';
import { astrayLine } from './astrayLine.js';
import { journalErrors, type RunReport } from './runReport.js';
import { coverageByFault, coverageLine } from './coverageLine.js';

/** The words for a check a signal stopped: `interrupted after 120 of 1000 runs (SIGINT)`. */
export function interruptedLine(interrupted: NonNullable<RunReport['interrupted']>): string {
  return `interrupted after ${interrupted.afterRuns} of ${interrupted.ofRuns} runs (${interrupted.signal})`;
}

export function reportMarkdown(report: RunReport): string {
  const lines = [
    `# durasim ${report.command}: ${report.journal} — ${report.verdict}`,
    '',
    `- journal: \`${report.journalSpec}\``,
  ];
  // Before anything that reads as a verdict: e.g. a replay of a file found with another journal.
  for (const warning of report.warnings ?? []) lines.push(`- **${warning}**`);
  if (report.seed !== undefined) lines.push(`- seed: ${report.seed}${report.faults ? ` · faults: ${report.faults.join(', ')}` : ''}${report.shard ? ` · shard ${report.shard.index}/${report.shard.count}` : ''}`);
  const astray = astrayLine(report.work);
  if (astray) lines.push(`- ${astray}`);
  lines.push(`- runs: ${report.runsExecuted}${report.runsPlanned !== undefined ? ` of ${report.runsPlanned}` : ''} in ${(report.elapsedMs / 1000).toFixed(2)} s${report.timeBudgetHit ? ' (time budget reached)' : ''}`);
  if (report.interrupted) lines.push(`- ${interruptedLine(report.interrupted)}: the verdict is of the runs made`);
  lines.push(`- exit code: ${report.exitCode}`);
  const skipped = report.regressionsSkipped ?? [];
  if (skipped.length > 0) {
    const families = skipped.filter((s) => s.reason === 'faults').length;
    lines.push(`- stored regressions not replayed: ${skipped.length} (${skipped.length - families} outside the task shape, ${families} of fault families this run does not draw; listed in summary.json)`);
  }
  if (report.sandbox) lines.push(`- sandbox: ${report.sandbox}`);
  const errors = report.result ? journalErrors(report.result) : [];
  if (errors.length > 0) lines.push('', '## What the journal reported', '', ...errors.map((e) => `- ${e}`));
  if (report.invariantsJudged) lines.push(`- invariants judged: ${report.invariantsJudged.join(', ')}`);
  if (report.tally) {
    lines.push('', '## Failing runs per invariant', '', '| invariant | failing runs | counterexample | replay |', '|---|---|---|---|');
    for (const [code, runs] of Object.entries(report.tally)) {
      const example = report.counterexamples?.find((c) => c.invariant === code);
      lines.push(`| \`${code}\` | ${runs} | ${example ? `${example.faults} fault(s)` : '—'} | ${example ? `\`${example.replayCommand}\`` : '—'} |`);
    }
  }
  if (report.violations.length > 0) {
    // Cause first: per key, the root cause, and what follows from it under it.
    lines.push('', report.tally ? '## The first counterexample' : '## Violations', '');
    for (const group of causeGroups(report.violations)) lines.push(`- ${describeFolded(group.root)}`, ...group.derived.map((d) => `  - then: ${describeFolded(d)}`));
    lines.push(...boundLines(report.violations).map((line) => `- ${line}`));
  }
  if (report.confirmation) lines.push('', '## In real processes', '', `**${report.confirmation.verdict}**`, '', ...report.confirmation.lines.map((line) => `- ${line}`));
  if (report.confirmation?.calls) {
    lines.push('', '### Disk calls per worker step: simulated, and the real system calls (strace)', '', '`≠` marks a step whose real calls changed the disk otherwise than simulated.', '', '```', ...report.confirmation.calls, '```');
  }
  if (report.coverage) {
    lines.push('', '## Fault windows', '', coverageLine(report.coverage), '', '| fault | windows hit (step kind × whose step) |', '|---|---|');
    for (const { fault, windows } of coverageByFault(report.coverage.windows)) lines.push(`| ${fault} | ${windows} |`);
    lines.push('', 'Every window is listed in summary.json (`coverage.windows`).');
  }
  if (report.replayCommand) lines.push('', '## Replay', '', '```sh', report.replayCommand, '```');
  if (report.result) lines.push('', '## What happened', '', '```text', explainText(report.result, report.violations), '```');
  return `${lines.join('\n')}\n`;
}
