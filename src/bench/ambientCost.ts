/**
 * What it costs to run a journal written against Node's own APIs instead of env, on one core, in
 * one run: the reference journal (env) and examples/node-journal (node:fs/promises, fetch, timers,
 * the same protocol) simulate and are judged on the same scenarios, in alternating rounds,
 * counting CPU time; the best round of each is kept. Modules shared, as most check runs are.
 */
import fc from 'fast-check';
import { judge } from '../../model/judge.js';
import { simulate } from '../../simulator/simulate.js';
import { journal as nodeJournal } from '../../examples/node-journal/journal.js';
import { referenceJournal } from '../journals/reference.js';
import { standardWorkload } from './workload.js';

const cpuMs = (): number => {
  const usage = process.cpuUsage(); // allow-ambient: the bench measures the harness, outside any simulation
  return (usage.user + usage.system) / 1000;
};

export async function ambientCost(options: { scenarios: number; rounds: number; seed: number }): Promise<{ envMs: number; nodeMs: number; ratio: number }> {
  const scenarios = fc.sample(standardWorkload, { numRuns: options.scenarios, seed: options.seed });
  const journals = { env: referenceJournal, node: nodeJournal };
  for (const scenario of scenarios.slice(0, 20)) for (const journal of Object.values(journals)) judge(await simulate(journal, scenario));
  const best = { env: Number.POSITIVE_INFINITY, node: Number.POSITIVE_INFINITY };
  for (let round = 0; round < options.rounds; round++) {
    for (const which of ['env', 'node'] as const) {
      const started = cpuMs();
      for (const scenario of scenarios) judge(await simulate(journals[which], scenario));
      best[which] = Math.min(best[which], (cpuMs() - started) / scenarios.length);
    }
  }
  return { envMs: best.env, nodeMs: best.node, ratio: best.node / best.env };
}
