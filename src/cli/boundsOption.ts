/**
 * The bounds a command sets for its runs (principle 7): --max-steps, --max-incarnations and
 * --max-virtual-time, else the config's "bounds". A bound set here replaces the scenario's (a
 * generated one's, a stored regression's, a replayed file's); one left out keeps the scenario's,
 * which from format 3 on grows with what its faults ask of virtual time
 * (simulator/scenario/scenarioBounds.ts).
 */
import type { Scenario, ScenarioBounds } from '../../simulator/scenario/scenario.js';

export type BoundsOption = Partial<ScenarioBounds>;

/** The command line's flags for the bounds, by the scenario field each sets. */
export const BOUND_FLAGS = { 'max-steps': 'maxSteps', 'max-incarnations': 'maxIncarnations', 'max-virtual-time': 'maxVirtualTimeMs' } as const;

/** The flags' parse kinds, for parseArgs. */
export const BOUND_FLAG_KINDS = { 'max-steps': 'positive', 'max-incarnations': 'positive', 'max-virtual-time': 'duration' } as const;

/** The bounds the flags set, over the config's; undefined when neither sets any. */
export function boundsOf(flags: Record<string, unknown>, config: BoundsOption | undefined): BoundsOption | undefined {
  const bounds: BoundsOption = { ...config };
  for (const [flag, field] of Object.entries(BOUND_FLAGS)) {
    const value = flags[flag];
    if (typeof value === 'number') bounds[field] = value;
  }
  return Object.keys(bounds).length === 0 ? undefined : bounds;
}

/** `scenario` with the bounds set (unchanged when none is). */
export function withBounds(scenario: Scenario, bounds: BoundsOption | undefined): Scenario {
  return bounds === undefined ? scenario : { ...scenario, bounds: { ...scenario.bounds, ...bounds } };
}
