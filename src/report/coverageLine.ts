/** The fault-window coverage of a check, in words: for its summary line and report.md. */
import type { RunReport } from './runReport.js';
import { count } from './count.js';

export function coverageLine(coverage: NonNullable<RunReport['coverage']>): string {
  const aimed = coverage.aimedRuns === 0 ? 'no run aimed at one' : `${count(coverage.aimedRuns, 'run')} aimed at one no run had hit, ${coverage.aimedHits} of them struck it`;
  const of = coverage.reachable === undefined ? '' : ` of ${coverage.reachable} within reach (${Math.round((100 * coverage.windows.length) / Math.max(1, coverage.reachable))}%)`;
  return `fault windows hit: ${coverage.windows.length}${of} (a fault × the kind of step it struck × whose step); ${aimed}`;
}

/** Per fault, how many windows (step kind × whose step) the runs hit it in, most first. */
export function coverageByFault(windows: readonly string[]): { fault: string; windows: number }[] {
  const byFault = new Map<string, number>();
  for (const w of windows) {
    const fault = w.slice(0, w.indexOf(' @ '));
    byFault.set(fault, (byFault.get(fault) ?? 0) + 1);
  }
  return [...byFault].map(([fault, n]) => ({ fault, windows: n })).sort((a, b) => b.windows - a.windows || (a.fault < b.fault ? -1 : 1));
}
