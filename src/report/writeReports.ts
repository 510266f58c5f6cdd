/**
 * Writes the report files of a run, each durably (temp file, fsync, rename, folder fsync). The
 * old summary.json goes first and the new one comes last: it is the record that the rest is
 * complete, so a report folder without one was interrupted. Every other report file this run does
 * not write (an earlier run's counterexample.json and timeline.html, explore's coverage) is removed
 * before the summary lands (reportFiles.ts).
 */
import { dirname, join, relative } from 'node:path';
import { findingText } from '../findingJson.js';
import { makeDirDurably, removeDurably, sweepLeftovers, writeFileDurably } from '../durableFile.js';
import { junitXml } from './junit.js';
import { removeStaleReports } from './reportFiles.js';
import { reportMarkdown } from './markdown.js';
import { summaryJson, type RunReport } from './runReport.js';
import { timelineHtml } from './timeline.js';

/** Returns the files written, by role, relative to the current directory. */
export function writeReports(dir: string, report: RunReport, junitPath?: string): Record<string, string> {
  makeDirDurably(dir);
  sweepLeftovers(dir);
  removeDurably(join(dir, 'summary.json'));
  const files: Record<string, string> = {};
  const written: string[] = ['summary.json'];
  const put = (role: string, name: string, text: string): void => {
    const path = join(dir, name);
    writeFileDurably(path, text);
    written.push(name);
    files[role] = relative(process.cwd(), path) || path;
  };
  if (report.counterexample) put('counterexample', 'counterexample.json', findingText(report.counterexample, { name: report.journal, module: report.journalSpec }));
  if (report.result) put('timeline', 'timeline.html', timelineHtml(report.result, report.violations, `durasim: ${report.journal} — ${report.verdict}`, report.faultFree));
  put('report', 'report.md', reportMarkdown(report));
  const junit = junitXml(report);
  put('junit', 'junit.xml', junit);
  if (junitPath) {
    makeDirDurably(dirname(junitPath));
    writeFileDurably(junitPath, junit);
    files.junitCopy = junitPath;
  }
  removeStaleReports(dir, written);
  put('summary', 'summary.json', `${JSON.stringify(summaryJson(report, files), null, 2)}\n`);
  return files;
}
