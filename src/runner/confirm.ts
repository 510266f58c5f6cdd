/**
 * The counterexample, run once more for the reports: twice in full (in two workers where there
 * are two), so a journal that is nondeterministic is told so instead of judged on one of its
 * traces. A run the pool had to stop is re-run with its step bound set just before the point
 * where it stopped, which gives the trace up to there.
 */
import { describeViolation } from '../../model/violation.js';
import type { Scenario } from '../../simulator/scenario.js';
import type { SimulationResult } from '../../simulator/simulate.js';
import { formatTraceEntry } from '../../simulator/trace.js';
import type { RunSummary } from '../pool/protocol.js';
import type { RunOutcome, WorkerPool } from '../pool/workerPool.js';
import { firstDivergence } from './explore.js';
import { summaryOf } from './runVerdict.js';

export interface Confirmed {
  summary: RunSummary;
  /** The full result (for blocked or out-of-memory runs: the run up to where it stopped), when there is one. */
  result?: SimulationResult;
  /** How two runs of the same scenario differed, when they did. */
  nondeterminism?: string;
  /** durasim's own failure while confirming. */
  harness?: { message: string; stack?: string };
}

export function describeDivergence(first: SimulationResult['trace'], second: SimulationResult['trace']): string {
  const at = firstDivergence(first, second);
  const a = first[at];
  const b = second[at];
  if (a === undefined && b === undefined) return 'the same scenario gave the same steps but wrote different bytes';
  return `the same scenario gave two different traces, parting at #${at}: ${a ? formatTraceEntry(a).trim() : '(ended)'} | ${b ? formatTraceEntry(b).trim() : '(ended)'}`;
}

export async function confirmCounterexample(pool: WorkerPool, journalId: number, scenario: Scenario, found: RunOutcome): Promise<Confirmed> {
  if (found.kind === 'harness-error') return { summary: { outcome: { kind: 'completed' }, violations: [], escapes: [], stats: { steps: 0, incarnations: 0, virtualTimeMs: 0, traceEntries: 0 }, journalErrors: [] }, harness: found };
  if (found.kind === 'journal-blocked' || found.kind === 'journal-out-of-memory') {
    const summary = summaryOf(found) as RunSummary;
    const upTo = found.kind === 'journal-blocked' ? found.at.globalStep : 0;
    if (upTo < 1) return { summary };
    const partial = await pool.run(journalId, { ...scenario, bounds: { ...scenario.bounds, maxSteps: upTo } }, 'full');
    return partial.kind === 'simulated' && partial.result ? { summary, result: partial.result } : { summary };
  }
  const [first, second] = await Promise.all([pool.run(journalId, scenario, 'full'), pool.run(journalId, scenario, 'full')]);
  for (const outcome of [first, second]) if (outcome.kind === 'harness-error') return { summary: found.summary, harness: outcome };
  if (first.kind !== 'simulated' || !first.result) return { summary: summaryOf(first) ?? found.summary };
  const confirmed: Confirmed = { summary: first.summary, result: first.result };
  if (second.kind === 'simulated' && second.result && second.result.traceHash !== first.result.traceHash) confirmed.nondeterminism = describeDivergence(first.result.trace, second.result.trace);
  else if (second.kind !== 'simulated') confirmed.nondeterminism = `the same scenario ran to completion once and then ended as ${second.kind}`;
  return confirmed;
}

/** One line per violation, for terminals. */
export function violationLines(summary: RunSummary): string[] {
  return summary.violations.map(describeViolation);
}
