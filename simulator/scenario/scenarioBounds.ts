/**
 * The bounds a run is held to (principle 7). A scenario's `bounds` say them; from format 3 on, a
 * bound left at its default grows with what the scenario asks of virtual time, so a journal that
 * polls a lease or a file through a fault's own wait is not cut short by a bound sized for a run
 * without it:
 * - the time the faults ask for: every pause (pauseMs), operator's hold (holdMs), delayed answer
 *   (delayMs), accepted-later commit (commitDelayMs), 503 wait (retryAfterMs, 1 s when the fault
 *   leaves it out) and restart after a crash (restartDelayMs each);
 * - steps: the default 5,000, plus one per millisecond of that time, up to 100,000 more (a worker
 *   polling every 10 ms may take ten steps a poll through a wait of up to 100 s; past that — a key's
 *   day-long time-to-live — the journal is expected to sleep, not poll);
 * - virtual time: the default hour, plus that time;
 * - incarnations: the default 12, plus one per crash fault.
 * A bound set to anything but its default is taken as set. Format 1 and 2 scenarios keep the
 * defaults as they were, and replay as they ran.
 */
import { DEFAULT_BOUNDS, type Scenario, type ScenarioBounds } from './scenario.js';

/** The first format whose default bounds grow with the time its faults ask for. */
export const GROWING_BOUNDS_VERSION = 3;

/** The most the step bound grows by. */
export const MAX_STEP_GROWTH = 100_000;

/** Virtual milliseconds the scenario's faults ask to wait, in all. */
export function timeAskedMs(scenario: Pick<Scenario, 'faults' | 'restartDelayMs'>): number {
  let ms = 0;
  for (const fault of scenario.faults) {
    switch (fault.kind) {
      case 'pause':
        ms += fault.pauseMs;
        break;
      case 'takeover':
        ms += fault.holdMs;
        break;
      case 'response':
        ms += (fault.delayMs ?? 0) + (fault.commitDelayMs ?? 0) + (fault.retryAfterMs ?? (fault.fault === 'unavailable' ? 1_000 : 0));
        break;
      case 'crash':
        ms += scenario.restartDelayMs;
        break;
      default:
        break;
    }
  }
  return ms;
}

/** What each bound is made of: the scenario's (or the default's) value, and what it grew by. */
export interface BoundsInForce extends ScenarioBounds {
  /** Per bound, what was added to its default for the time the faults ask (absent: taken as set). */
  grownBy: Partial<Record<keyof ScenarioBounds, number>>;
}

/** The bounds a run of `scenario` is held to. */
export function boundsInForce(scenario: Pick<Scenario, 'version' | 'bounds' | 'faults' | 'restartDelayMs'>): BoundsInForce {
  const { bounds } = scenario;
  if (scenario.version < GROWING_BOUNDS_VERSION) return { ...bounds, grownBy: {} };
  const asked = timeAskedMs(scenario);
  const crashes = scenario.faults.filter((f) => f.kind === 'crash').length;
  const growth: Record<keyof ScenarioBounds, number> = { maxSteps: Math.min(asked, MAX_STEP_GROWTH), maxVirtualTimeMs: asked, maxIncarnations: crashes };
  const out: BoundsInForce = { ...bounds, grownBy: {} };
  for (const key of Object.keys(growth) as (keyof ScenarioBounds)[]) {
    if (bounds[key] !== DEFAULT_BOUNDS[key] || growth[key] === 0) continue;
    out[key] = bounds[key] + growth[key];
    out.grownBy[key] = growth[key];
  }
  return out;
}
