/**
 * durasim confirm <scenario.json>: is a simulated failure real? The scenario is simulated (with the
 * journal's modules loaded afresh at every incarnation, as a real restart loads them), then run for
 * real and judged the same way (src/confirm/confirmScenario.ts). Exit codes: confirmed 1 (safety)
 * or 3 (liveness), both clean 0, another violation 1, not reproduced (in another order or not) 4,
 * cannot confirm 2, diverged 6.
 */
import { confirmScenario, simulatedOf } from '../confirm/confirmScenario.js';
import { WorkerPool } from '../pool/workerPool.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import type { Violation } from '../../model/violation.js';
import { loadOrEscape, type PoolFlags } from './check.js';
import { EXIT } from './exitCodes.js';
import { reportHarnessFailure } from './harnessFailure.js';
import { readFindingFile } from './scenarioFile.js';
import { chooseFindingJournal, journalWarning } from './findingJournal.js';
import { withBounds, type BoundsOption } from './boundsOption.js';
import { withConfigContract } from './configContract.js';
import type { ServiceContract } from '../../simulator/contract/contract.js';

export interface ConfirmOptions extends PoolFlags {
  file: string;
  /** --journal. */
  journal?: string;
  /** The config's journal (durasim.config.json or --config) and its file: used when no --journal is given. */
  configJournal?: string;
  configFile?: string;
  /** The config's service contract: the scenario's when it names none (configContract.ts). */
  configContract?: ServiceContract;
  /** Wall-clock limit of the real run (default: a minute plus the scenario's waits, src/confirm/realWaits.ts). */
  wallLimitMs?: number;
  /** Print the real system calls beside the simulated disk calls, per worker step. */
  calls?: boolean;
  /** Bounds over the scenario's (--max-steps and its siblings). */
  bounds?: BoundsOption;
}

export async function runConfirm(options: ConfirmOptions, print: (line: string) => void): Promise<number> {
  const found = readFindingFile(options.file, 'Pass the path of a scenario file, e.g. a regression from reports/regressions/');
  const { recorded } = found;
  const spoken = withConfigContract(withBounds(found.scenario, options.bounds), options.configContract, options.configFile);
  const scenario = spoken.scenario;
  const choice = chooseFindingJournal(options.file, recorded, { flag: options.journal, config: options.configJournal, configFile: options.configFile });
  const ref = choice.ref;
  for (const line of choice.lines) print(line);
  print(`confirm ${options.file} · journal ${ref.spec} · real processes, real files, a real node:http service`);
  if (spoken.line) print(spoken.line);
  const pool = new WorkerPool({ ...options, workers: 1 });
  let simulated: { violations: Violation[]; result: SimulationResult };
  try {
    const loaded = await loadOrEscape(pool, ref, print, scenario.environment);
    if (typeof loaded === 'number') return loaded;
    const warning = journalWarning(options.file, choice, loaded.name);
    if (warning) print(warning);
    const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full', modules: 'fresh' });
    if (outcome.kind === 'harness-error') return reportHarnessFailure(outcome.message, scenario, 'durasim-report', print);
    if (outcome.kind !== 'simulated' || !outcome.result) {
      print(`cannot confirm: the simulated run did not finish (${outcome.kind}${'detail' in outcome ? `: ${outcome.detail}` : ''}).`);
      return EXIT.usage;
    }
    simulated = { violations: outcome.summary.violations, result: outcome.result };
  } finally {
    await pool.close();
  }
  const confirmation = await confirmScenario(ref, scenario, simulatedOf(simulated.result, simulated.violations), options.wallLimitMs === undefined ? {} : { wallLimitMs: options.wallLimitMs });
  for (const line of confirmation.lines) print(line);
  if (options.calls && confirmation.calls) {
    print('disk calls per worker step, simulated beside real (≠ where they differ), with the real system calls:');
    for (const line of confirmation.calls) print(`  ${line}`);
  } else if (options.calls) print('disk calls: the workers ran untraced (no strace), so there is no real-call log.');
  return confirmation.exitCode;
}
