import type { Scenario } from '../../simulator/scenario/scenario.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import { confirmScenario, simulatedOf } from '../confirm/confirmScenario.js';
import type { JournalRef } from '../isolation/journalRef.js';
import type { WorkerPool } from '../pool/workerPool.js';
import type { RunReport } from '../report/runReport.js';
import { realRestartScenario } from '../runner/realRestart.js';

/**
 * The real restart of a clean check (its default, off with --no-real-restart; src/runner/realRestart.ts): simulated in full,
 * then run in real processes. Real processes breaking what the simulation did not (confirm's "another violation") is a
 * sandbox verdict: what the journal did after a simulated crash is not what it does after a real one. The simulated side is
 * every violation the simulation judged, those of invariants the check leaves out (--invariants, --safety-only) included:
 * what both worlds break is no parting, whichever invariants the verdict counts. Any other label is reported as it is.
 */
export async function realRestart(pool: WorkerPool, journalId: number, ref: JournalRef, base: Scenario): Promise<{ confirmation?: NonNullable<RunReport['confirmation']>; sandbox?: { scenario: Scenario; why: string; result?: SimulationResult } }> {
  const scenario = realRestartScenario(base);
  if (scenario === undefined) return { confirmation: { verdict: 'not run', lines: ['not run: the task has no operation to restart in'] } };
  const simulated = await pool.run(journalId, scenario, { detail: 'full', modules: 'fresh' });
  if (simulated.kind !== 'simulated' || !simulated.result) return { confirmation: { verdict: 'not run', lines: [`not run: the restart's simulation ended ${simulated.kind}`] } };
  const { verdict, lines, calls } = await confirmScenario(ref, scenario, simulatedOf(simulated.result, simulated.summary.violations));
  const confirmation = { verdict, lines: ['a real restart of the clean task (one crash before its first step naming the first key):', ...lines], ...(calls ? { calls } : {}) };
  if (verdict !== 'another violation') return { confirmation };
  const where = lines.find((line) => line.startsWith('steps: '))?.replace(/^steps: /, '');
  const what = lines.find((line) => line.startsWith('verdict: '))?.replace(/^verdict: /, '');
  const why = `a real restart parted from the simulated one${where ? ` (${where})` : ''}${what ? `: ${what}` : ''}. What the journal did after a simulated crash is not what it does after a real one: it kept something a real crash forgets, where durasim's restore does not reach (README, known limits), or the simulated world served it otherwise than real processes do. Run the replay below to see both worlds step by step`;
  return { confirmation, sandbox: { scenario, why, result: simulated.result } };
}
