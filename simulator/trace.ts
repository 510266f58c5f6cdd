/**
 * Trace: the record of a simulation, one entry per step and per event (crash, fault, commit,
 * restart, user edit). Two runs of the same scenario must give the same trace, byte for byte;
 * `traceHash` is the fingerprint that checks it.
 */
import { createHash } from 'node:crypto';

export interface TraceEntry {
  /** Position in the trace. */
  seq: number;
  /** Virtual milliseconds since the start of the run. */
  timeMs: number;
  /** worker-<pid>, user, service, supervisor. */
  actor: string;
  incarnation?: number;
  /** For worker steps: the step's index within its incarnation (what crash faults name). */
  step?: number;
  /** For worker steps: the global step number (what atStep faults name). */
  globalStep?: number;
  op: string;
  detail: string;
}

export function traceHash(trace: readonly TraceEntry[]): string {
  const hash = createHash('sha256');
  for (const entry of trace) hash.update(`${JSON.stringify(entry)}\n`);
  return hash.digest('hex');
}

/** One line per entry, for terminals and reports. */
export function formatTraceEntry(entry: TraceEntry): string {
  const who = entry.incarnation === undefined ? entry.actor : `${entry.actor}#${entry.incarnation}`;
  const step = entry.step === undefined ? '' : ` step ${entry.step}`;
  return `${String(entry.seq).padStart(4)} ${String(entry.timeMs).padStart(7)}ms ${who}${step} ${entry.op}${entry.detail ? ` ${entry.detail}` : ''}`;
}
