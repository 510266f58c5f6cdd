/**
 * The files durasim writes into a report folder (--report-dir), by name, and the rule that keeps
 * the folder true: a run removes, durably, every one of them it does not write itself — before its
 * summary lands — so a clean run never sits beside the last run's counterexample.json and
 * timeline.html, and an explore beside the last check's summary.json. check, explore, and replay
 * with --report-dir own their folder; their files are these and nothing else is touched.
 */
import { join } from 'node:path';
import { removeDurably } from '../durableFile.js';

export const REPORT_FILES = [
  'summary.json', // check, replay: the record that the rest is complete (written last)
  'report.md',
  'junit.xml',
  'counterexample.json', // a finding (or an inspect() answer the judge cannot read)
  'timeline.html',
  'harness-failure.json', // durasim's own failure: the scenario to report
  'coverage.md', // explore
  'coverage.json', // explore: its record (written last)
] as const;

export type ReportFile = (typeof REPORT_FILES)[number];

/** Removes durably each report file in `dir` but those `kept` (what this run writes); returns the names removed. */
export function removeStaleReports(dir: string, kept: readonly string[]): string[] {
  const removed: string[] = [];
  for (const name of REPORT_FILES) {
    if (kept.includes(name)) continue;
    if (removeDurably(join(dir, name))) removed.push(name);
  }
  return removed;
}
