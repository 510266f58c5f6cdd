/**
 * The waits a real run sits through in real time, and how long it may take. A confirmation runs
 * the scenario's timed faults in real milliseconds, as the simulation runs them in virtual ones:
 * a 503 asks for its `retryAfterMs` (the real service answers the scenario's number, and the judge
 * holds a re-send to it on the real clock: one sent sooner after the 503 is early, as simulated),
 * a pause freezes its worker that long, a takeover holds the task that long, a delayed answer comes
 * that late. A journal that waits as it is asked waits for real: the run's default wall-clock limit
 * is a minute plus every such wait, so that waiting as asked is never cut short as a liveness finding.
 */
import type { Scenario } from '../../simulator/scenario/scenario.js';

/** The wall-clock limit of a real run with no --wall-limit. */
export const BASE_WALL_LIMIT_MS = 60_000;

/** The real milliseconds the scenario's timed faults add up to: every 503's wait (1000 when it names none), pause, takeover and delayed answer or commit. */
export function realWaitsMs(scenario: Scenario): number {
  let total = 0;
  for (const fault of scenario.faults) {
    if (fault.kind === 'response') total += (fault.fault === 'unavailable' ? (fault.retryAfterMs ?? 1000) : 0) + (fault.delayMs ?? 0) + (fault.commitDelayMs ?? 0);
    else if (fault.kind === 'pause') total += fault.pauseMs;
    else if (fault.kind === 'takeover') total += fault.holdMs;
  }
  return total;
}

/** The default wall-clock limit of a real run: a minute, plus the scenario's waits. */
export function defaultWallLimitMs(scenario: Scenario): number {
  return BASE_WALL_LIMIT_MS + realWaitsMs(scenario);
}
