/**
 * GitHub Actions annotations for a check's findings: one `::error` line per violation, on the
 * regression file that replays it, so a failing CI job shows each finding on its summary page.
 * Printed only when GITHUB_ACTIONS is set. Escaping follows GitHub's workflow-command rules.
 */
import { describeViolation } from '../../model/violation.js';
import type { RunReport } from './runReport.js';

const data = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (text: string): string => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function githubAnnotations(report: RunReport): string[] {
  const line = (file: string, code: string, message: string): string => `::error file=${property(file)},title=${property(`durasim: ${code}`)}::${data(`${message}. Replay: npx durasim replay ${file} --journal ${report.journalSpec}`)}`;
  if (report.counterexamples && report.counterexamples.length > 0) {
    return report.counterexamples.map((c) => line(c.regressionFile, c.invariant, c.violations[0] ?? c.invariant));
  }
  if (report.regressionFile === undefined) return [];
  return report.violations.map((v) => line(report.regressionFile as string, v.code, describeViolation(v)));
}
