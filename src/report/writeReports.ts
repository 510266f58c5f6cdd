/**
 * Writes the report files of a run. Each file is written to a temporary name in the report dir and
 * renamed into place, so an interrupted run leaves no partial file; nothing is written elsewhere.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { scenarioToJson } from '../../simulator/scenario.js';
import { junitXml } from './junit.js';
import { reportMarkdown } from './markdown.js';
import { summaryJson, type RunReport } from './runReport.js';
import { timelineHtml } from './timeline.js';

export function writeAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/** Returns the files written, by role, relative to the current directory. */
export function writeReports(dir: string, report: RunReport, junitPath?: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {};
  const put = (role: string, name: string, text: string): void => {
    const path = join(dir, name);
    writeAtomically(path, text);
    files[role] = relative(process.cwd(), path) || path;
  };
  if (report.counterexample) put('counterexample', 'counterexample.json', `${JSON.stringify(scenarioToJson(report.counterexample), null, 2)}\n`);
  if (report.result) put('timeline', 'timeline.html', timelineHtml(report.result, report.violations, `durasim: ${report.journal} — ${report.verdict}`));
  put('report', 'report.md', reportMarkdown(report));
  const junit = junitXml(report);
  put('junit', 'junit.xml', junit);
  if (junitPath) {
    writeAtomically(junitPath, junit);
    files.junitCopy = junitPath;
  }
  put('summary', 'summary.json', `${JSON.stringify(summaryJson(report, files), null, 2)}\n`);
  return files;
}
