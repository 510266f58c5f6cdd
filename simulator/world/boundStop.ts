/**
 * A run cut by one of its bounds (scenario/scenarioBounds.ts), said in its own words: which bound,
 * what it was made of, and that the journal was still going — a bound reached is neither a stall
 * (a wait on something outside the world) nor a deadlock (nothing left that could wake it).
 */
import { GROWING_BOUNDS_VERSION, type BoundsInForce } from '../scenario/scenarioBounds.js';
import type { StopReason } from './runRecords.js';

type Bound = Extract<StopReason, { kind: 'bounds-exceeded' }>['bound'];

const FIELD = { steps: 'maxSteps', incarnations: 'maxIncarnations', 'virtual-time': 'maxVirtualTimeMs' } as const;
const UNIT = { steps: ' steps', incarnations: ' incarnations a worker', 'virtual-time': ' ms of virtual time' } as const;
const DOING = {
  steps: 'the journal was still taking steps',
  incarnations: 'it was still being restarted (each incarnation ended by a crash or an error)',
  'virtual-time': 'the journal was still waiting on the clock',
} as const;

const n = (value: number): string => value.toLocaleString('en-US');

/**
 * The stop reason of a run that reached `bound`; `what` says how far it got ("5000 steps taken").
 * A scenario of a format before 3 keeps the words it was recorded with (`before3`): they are in its trace.
 */
export function boundStop(bounds: BoundsInForce, bound: Bound, what: string, version: number, before3: string): StopReason {
  const field = FIELD[bound];
  const limit = bounds[field];
  if (version < GROWING_BOUNDS_VERSION) return { kind: 'bounds-exceeded', bound, limit, detail: before3 };
  const grown = bounds.grownBy[field];
  const why = { steps: "one a millisecond of the waits the scenario's faults ask", incarnations: `one a crash fault of the scenario's`, 'virtual-time': "the waits the scenario's faults ask" }[bound];
  const made = grown === undefined ? '' : ` (${n(limit - grown)} by default, plus ${n(grown)}: ${why})`;
  return { kind: 'bounds-exceeded', bound, limit, detail: `${what}; the bound is ${n(limit)}${UNIT[bound]}${made}, and ${DOING[bound]} when the run was cut: not a stall or a deadlock` };
}
