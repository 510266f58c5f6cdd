/** check --sweep's summary line: the single-fault states it judged, at how many of the fault-free run's crash points, and what it cost. */
import type { RunReport } from './runReport.js';
import { count } from './count.js';

export function sweepLine(sweep: NonNullable<RunReport['sweep']>, shard?: { index: number; count: number }): string {
  const { explored, of } = sweep.points;
  const reach = explored === of && sweep.stoppedBy === undefined ? `every one of the fault-free run's ${count(of, 'crash point')}` : `${explored} of the fault-free run's ${count(of, 'crash point')}${sweep.stoppedBy ? ` (${sweep.stoppedBy})` : ''}`;
  const share = shard ? ` (shard ${shard.index}/${shard.count}'s share: one step in ${shard.count})` : '';
  return `single-fault sweep: ${count(sweep.states, 'state')} judged at ${reach}${share} in ${count(sweep.runs, 'run')}, ${(sweep.ms / 1000).toFixed(1)} s (${(sweep.cpuMs / 1000).toFixed(1)} s CPU)`;
}
