/**
 * The counterexample, run once more for the reports — faithfully: with the journal's modules
 * loaded afresh at every incarnation (as a restarted process loads them), twice in a row in one
 * worker. So a journal that is nondeterministic is told so; and a failure that appeared only while
 * its modules were shared (module state that outlived a crash, or a run) is told so too, instead
 * of being judged as if it were the journal's behaviour in production. A run the pool had to stop
 * is re-run with its step bound set just before where it stopped, which gives the trace up to there.
 */
import { invariantKind } from '../../model/violation.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import { formatTraceEntry, type TraceEntry } from '../../simulator/world/trace.js';
import type { RunSummary } from '../pool/protocol.js';
import type { RunOutcome, WorkerPool } from '../pool/workerPool.js';
import { divergenceOf, firstDivergence, type Divergence } from './explore.js';
import { outcomeVerdict, summaryOf } from './runVerdict.js';

export interface Confirmed {
  summary: RunSummary;
  /** The full result (for blocked or out-of-memory runs: the run up to where it stopped), when there is one. */
  result?: SimulationResult;
  /** Why the verdict is a sandbox one: two runs of the scenario differed, or the failure needs shared module state. */
  sandbox?: string;
  /** durasim's own failure while confirming. */
  harness?: { message: string; stack?: string };
  /**
   * The invariants the same scenario breaks with its faults removed (schedule, draws and task
   * kept), replayed: what lets a report say a violation needs no fault, or that it needs them.
   * Absent when the scenario has no faults or the replay did not simulate.
   */
  faultFree?: string[];
}

function parting(first: readonly TraceEntry[], second: readonly TraceEntry[]): string {
  const at = firstDivergence(first, second);
  const a = first[at];
  const b = second[at];
  if (a === undefined && b === undefined) return 'took the same steps but wrote different bytes';
  return `parts at #${at}: ${a ? formatTraceEntry(a).trim() : '(ended)'} | ${b ? formatTraceEntry(b).trim() : '(ended)'}`;
}

/** What a divergence means, in one line. */
export function describeDivergence(divergence: Pick<Divergence, 'rerun' | 'first' | 'second'>): string {
  if (divergence.rerun === 'same') return `the same scenario run twice ${parting(divergence.first, divergence.second)}`;
  return `module state survived a crash: with the journal's modules loaded afresh at every incarnation, as a restarted process loads them, the run ${parting(divergence.first, divergence.second)}`;
}

export async function confirmCounterexample(pool: WorkerPool, journalId: number, scenario: Scenario, found: RunOutcome): Promise<Confirmed> {
  if (found.kind === 'harness-error') return { summary: { outcome: { kind: 'completed' }, violations: [], escapes: [], stats: { steps: 0, incarnations: 0, virtualTimeMs: 0, traceEntries: 0 }, journalErrors: [], crashStates: [] }, harness: found };
  if (found.kind === 'journal-blocked' || found.kind === 'journal-out-of-memory') {
    const summary = summaryOf(found) as RunSummary;
    const upTo = found.kind === 'journal-blocked' ? found.at.globalStep : 0;
    if (upTo < 1) return { summary };
    // The journal blocked after its last step completed (the heartbeat names the next decision): the run is cut as that step completes.
    const partial = await pool.run(journalId, scenario, { detail: 'full', cutAfterStep: upTo - 1 });
    if (partial.kind !== 'simulated' || !partial.result) return { summary };
    // The run up to the step where the journal blocked; its end is what the pool saw, not the step bound that stopped the re-run.
    const trace = partial.result.trace.filter((entry) => !(entry.actor === 'supervisor' && entry.op === 'stop'));
    const last = trace.at(-1);
    trace.push({ seq: trace.length, timeMs: last?.timeMs ?? 0, actor: 'supervisor', op: 'stop', detail: `${found.kind}: ${found.detail}` });
    // What the run broke before the journal blocked is judged too: a safety violation there outranks the hang.
    const before = partial.summary.violations.filter((v) => invariantKind(v.code) === 'safety');
    return { summary: { ...summary, violations: [...before, ...summary.violations] }, result: { ...partial.result, outcome: summary.outcome, trace } };
  }
  const faithful = await pool.run(journalId, scenario, { detail: 'full', modules: 'fresh', then: 'same' });
  if (faithful.kind === 'harness-error') return { summary: summaryOf(found) ?? (faithful as never), harness: faithful };
  if (faithful.kind !== 'simulated' || !faithful.result) return { summary: summaryOf(faithful) ?? (summaryOf(found) as RunSummary) };
  const confirmed: Confirmed = { summary: faithful.summary, result: faithful.result };
  if (scenario.faults.length > 0) {
    const faultFree = await pool.run(journalId, { ...scenario, faults: [] }, { modules: 'fresh' });
    if (faultFree.kind === 'simulated') confirmed.faultFree = [...new Set(faultFree.summary.violations.map((v) => v.code))];
  }
  const twice = divergenceOf(faithful, 'same');
  if (twice) confirmed.sandbox = describeDivergence(twice);
  else if (found.kind === 'simulated' && outcomeVerdict(found) !== 'clean' && outcomeVerdict(faithful) === 'clean') {
    confirmed.sandbox = `module state outlived an incarnation or a run: the failure shows only while the journal's modules are shared; with them loaded afresh at every incarnation the scenario passes`;
  }
  return confirmed;
}
