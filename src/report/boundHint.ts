/**
 * Under a finding whose run reached a bound: which one, and how to raise it from the command line
 * and the config (src/cli/boundsOption.ts), if the journal needs more.
 */
import type { Violation } from '../../model/violation.js';

const FLAG = { steps: 'max-steps', incarnations: 'max-incarnations', 'virtual-time': 'max-virtual-time' } as const;
const FIELD = { steps: 'maxSteps', incarnations: 'maxIncarnations', 'virtual-time': 'maxVirtualTimeMs' } as const;

type Bound = keyof typeof FLAG;

/** The hint for a bound the run reached at `limit`. */
export function raiseBoundHint(bound: Bound, limit: number): string {
  const more = limit * 4;
  const flagValue = bound === 'virtual-time' ? `${Math.ceil(more / 1000)}s` : String(more);
  return `the run reached its ${bound} bound (${limit.toLocaleString('en-US')}${bound === 'virtual-time' ? ' ms' : ''}); if the journal needs more, raise it: --${FLAG[bound]} ${flagValue}, or "bounds": { "${FIELD[bound]}": ${more} } in durasim.config.json`;
}

/** The hint lines for the violations of a run cut by a bound (none otherwise). */
export function boundLines(violations: readonly Violation[]): string[] {
  for (const v of violations) {
    const outcome = (v.evidence as { outcome?: { kind?: string; bound?: string; limit?: number } } | undefined)?.outcome;
    if (v.code === 'convergence' && outcome?.kind === 'bounds-exceeded' && outcome.bound !== undefined && outcome.bound in FLAG && typeof outcome.limit === 'number') return [`bound: ${raiseBoundHint(outcome.bound as Bound, outcome.limit)}`];
  }
  return [];
}
