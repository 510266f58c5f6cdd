/**
 * The benchmark's standard workload: 3 publishes, 1 lookup, 1 edit, with swarm faults — up to 3
 * crashes (any crash mode), response faults, duplicate delivery and user edits — generated,
 * simulated and judged, as `durasim check` does it.
 */
import fc from 'fast-check';
import { judge } from '../../model/judge.js';
import { simulate } from '../../simulator/simulate.js';
import { scenarioArbitrary } from '../arbitraries.js';
import { referenceJournal } from '../journals/reference.js';

export const standardWorkload = scenarioArbitrary({ faults: ['crash', 'disk', 'response', 'duplicate', 'user'], allOperations: true });

/** Generates, simulates and judges scenarios for about `seconds` (or `runs`); returns the rate. */
export async function throughput(options: { seconds?: number; runs?: number; seed: number }): Promise<{ runs: number; seconds: number; perSecond: number; violations: number }> {
  const batch = fc.sample(standardWorkload, { numRuns: 200, seed: options.seed });
  let runs = 0;
  let violations = 0;
  const started = performance.now();
  const limitMs = (options.seconds ?? Number.POSITIVE_INFINITY) * 1000;
  const limitRuns = options.runs ?? Number.POSITIVE_INFINITY;
  let round = 0;
  while (runs < limitRuns && performance.now() - started < limitMs) {
    const scenarios = round === 0 ? batch : fc.sample(standardWorkload, { numRuns: 200, seed: options.seed + round });
    round++;
    for (const scenario of scenarios) {
      if (runs >= limitRuns || performance.now() - started >= limitMs) break;
      violations += judge(await simulate(referenceJournal, scenario)).length;
      runs++;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return { runs, seconds, perSecond: runs / seconds, violations };
}
