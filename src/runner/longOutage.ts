/**
 * The crash family's long outage (crashExplorer.ts): a process kill after which the worker is back a day and a second
 * later, where every other kill brings it back 100 ms later. Recovery that reads the clock — receipts kept an hour, a
 * lock or a job taken for stale, a key's lifetime — meets time there it never meets otherwise. Tried alone, at the
 * first level only (the delay is the whole scenario's: another fault's restart would wait a day too), and only where
 * the run's virtual-time bound grows by it (format 3, the bound at its default): else the run would end waiting, a
 * liveness failure of durasim's making.
 */
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { boundsInForce } from '../../simulator/scenario/scenarioBounds.js';

/** How long the worker stays down: a day and a second, past every threshold up to a day. */
export const DOWNTIME_MS = 86_401_000;
export const DOWNTIME_NOTE = 'the worker restarted a day later';

/** `killed` (the start with a process kill added) with the worker back a day later, or undefined where the bound would not grow by it. */
export function longOutage(start: Scenario, killed: Scenario): Scenario | undefined {
  if (start.restartDelayMs >= DOWNTIME_MS) return undefined;
  const scenario = { ...killed, restartDelayMs: DOWNTIME_MS };
  return boundsInForce(scenario).maxVirtualTimeMs - boundsInForce(killed).maxVirtualTimeMs >= DOWNTIME_MS - start.restartDelayMs ? scenario : undefined;
}
