/**
 * What fresh modules per incarnation cost, on one core, in one run: the same scenarios simulated
 * and judged with the journal's modules shared (as before the worker pool) and evaluated afresh for
 * every incarnation (as the pool runs them), in alternating rounds, counting CPU time (the
 * machine is shared; the best round of each is kept).
 */
import fc from 'fast-check';
import { judge } from '../../model/judge.js';
import { simulate } from '../../simulator/simulate.js';
import { bundleJournal } from '../isolation/bundleJournal.js';
import { bundledJournal } from '../isolation/journalRef.js';
import { compileJournal } from '../isolation/journalInstances.js';
import { standardWorkload } from './workload.js';

const cpuMs = (): number => {
  const usage = process.cpuUsage(); // allow-ambient: the bench measures the harness, outside any simulation
  return (usage.user + usage.system) / 1000;
};

export async function isolationCost(options: { scenarios: number; rounds: number; seed: number }): Promise<{ sharedMs: number; freshMs: number; ratio: number }> {
  const ref = bundledJournal('reference');
  if (!ref) throw new Error('the reference journal has no module');
  const instances = await compileJournal(await bundleJournal(ref), new URL('../index.ts', import.meta.url).pathname);
  const shared = instances.fresh();
  const scenarios = fc.sample(standardWorkload, { numRuns: options.scenarios, seed: options.seed });
  const best = { shared: Number.POSITIVE_INFINITY, fresh: Number.POSITIVE_INFINITY };
  for (let round = 0; round < options.rounds; round++) {
    for (const mode of ['shared', 'fresh'] as const) {
      const started = cpuMs();
      for (const scenario of scenarios) judge(await simulate(shared, scenario, mode === 'fresh' ? { fresh: instances.fresh } : {}));
      best[mode] = Math.min(best[mode], (cpuMs() - started) / scenarios.length);
    }
  }
  return { sharedMs: best.shared, freshMs: best.fresh, ratio: best.fresh / best.shared };
}
