/** check's summary lines for a shrunk counterexample and for --tally (check.ts prints them). */
import type { RunReport } from '../report/runReport.js';

/** How far the counterexample shrank, as fast-check says it: smaller failing scenarios taken, candidates tried, faults before and after. */
export function shrinkLine(shrink: NonNullable<RunReport['shrink']>, faultsNow: number | undefined): string {
  const faults = faultsNow === undefined ? '' : `, faults ${shrink.fromFaults} → ${faultsNow}`;
  return `shrunk ${shrink.steps} time${shrink.steps === 1 ? '' : 's'} (${shrink.attempts} candidate${shrink.attempts === 1 ? '' : 's'} tried in ${(shrink.ms / 1000).toFixed(1)} s${faults})${shrink.exhausted ? '; the attempt budget ran out first' : ''}${shrink.stopped ? '; stopped there by the interrupt' : ''}`;
}

/** The tally, one line per invariant that failed: how many runs broke it, and the command that replays its counterexample. */
export function tallyLines(report: RunReport): string[] {
  const counts = Object.entries(report.tally ?? {});
  if (counts.length === 0) return ['no invariant was broken'];
  return counts.flatMap(([code, runs]) => {
    const example = report.counterexamples?.find((c) => c.invariant === code);
    return [`${code}: ${runs} failing run${runs === 1 ? '' : 's'}${example ? ` · ${example.notShrunk ? 'saved as found with' : 'shrunk to'} ${example.faults} fault${example.faults === 1 ? '' : 's'}` : ''}`, ...(example ? [`  replay: ${example.replayCommand}`] : [])];
  });
}
