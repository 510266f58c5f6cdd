/**
 * Where a run is judged. A pool worker runs the journal's code, and that code can reach everything in
 * its thread: the builtins (a journal that replaces Array.prototype.flatMap once turned the no-fsync
 * mutant's exit 1 into "28 held"), and durasim's own modules it imports by path (the judge's table of
 * checks among them). So the worker never judges: it sends the evidence the judge reads, as plain data
 * (structured clone: no function, getter or prototype of the journal's crosses), and the main thread,
 * where no journal code runs, judges it.
 */
import type { JudgeInput } from '../../model/evidence.js';
import { judge } from '../../model/judge.js';
import type { RunSummary, TraceColumns, WireEvidence, WorkerSummary } from './protocol.js';

/** Every field the judge reads (JudgeInput's), and nothing else of the result. */
const JUDGED = ['scenario', 'outcome', 'trace', 'effects', 'requests', 'crashes', 'userEdits', 'final', 'observed', 'receiptLosses', 'store', 'secretSightings', 'temp', 'strayRequests', 'serviceUrl', 'intentDigests', 'states', 'keyQuery', 'keyTtlMs'] as const;
// A field added to JudgeInput and not to JUDGED fails to compile here.
const everyField: Exclude<keyof JudgeInput, (typeof JUDGED)[number]> extends never ? true : never = true;
void everyField;

/** A trace line as the simulator writes it (TraceEntry): what the judge reads, and the step numbers a violation may quote. */
type Line = JudgeInput['trace'][number] & { step?: number; globalStep?: number };

function traceColumns(trace: readonly Line[]): TraceColumns {
  const columns: TraceColumns = { actors: [], ops: [], actor: [], op: [], detail: [], incarnation: [], timeMs: [], step: [], globalStep: [] };
  const actors = new Map<string, number>();
  const ops = new Map<string, number>();
  const indexOf = (names: string[], index: Map<string, number>, name: string): number => {
    let at = index.get(name);
    if (at === undefined) {
      at = names.length;
      names.push(name);
      index.set(name, at);
    }
    return at;
  };
  for (const line of trace) {
    columns.actor.push(indexOf(columns.actors, actors, line.actor));
    columns.op.push(indexOf(columns.ops, ops, line.op));
    columns.detail.push(line.detail);
    columns.incarnation.push(line.incarnation ?? -1);
    columns.timeMs.push(line.timeMs ?? 0);
    columns.step.push(line.step ?? -1);
    columns.globalStep.push(line.globalStep ?? -1);
  }
  return columns;
}

/** The trace's lines again, each with the fields and in the order the simulator writes them (trace.ts TraceEntry). */
function traceLines(columns: TraceColumns): Line[] {
  const lines: Line[] = [];
  for (let seq = 0; seq < columns.actor.length; seq++) {
    const incarnation = columns.incarnation[seq] as number;
    const step = columns.step[seq] as number;
    const globalStep = columns.globalStep[seq] as number;
    const line: Line = {
      seq,
      timeMs: columns.timeMs[seq] as number,
      actor: columns.actors[columns.actor[seq] as number] as string,
      ...(incarnation >= 0 ? { incarnation } : {}),
      ...(step >= 0 ? { step } : {}),
      ...(globalStep >= 0 ? { globalStep } : {}),
      op: columns.ops[columns.op[seq] as number] as string,
      detail: columns.detail[seq] as string,
    };
    lines.push(line);
  }
  return lines;
}

/** What the judge reads of a run's result (worker side): its own fields, by reference (the message's clone copies them), the trace in columns and the scenario's judged part. */
export function evidenceOf(result: JudgeInput): WireEvidence {
  const evidence: Record<string, unknown> = {};
  for (const field of JUDGED) if (result[field] !== undefined) evidence[field] = result[field];
  const { task, taskAfterRestart, service, faults, files } = result.scenario;
  evidence.scenario = { task, service, faults, ...(taskAfterRestart !== undefined ? { taskAfterRestart } : {}), ...(files !== undefined ? { files } : {}) };
  evidence.trace = traceColumns(result.trace as readonly Line[]);
  return evidence as unknown as WireEvidence;
}

/** The run's summary with its verdict, judged here from the evidence the worker sent (main side); the evidence is dropped. */
export function judgedSummary(summary: WorkerSummary): RunSummary {
  const { evidence, ...rest } = summary;
  return { ...rest, violations: judge({ ...evidence, trace: traceLines(evidence.trace) }) };
}
