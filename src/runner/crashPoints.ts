/**
 * The crash points of a run: every worker step of its trace, before it and after it, with what
 * the step asked of the service and the store and what it touches — where explore
 * (crashExplorer.ts) places a fault, and what its depth 2 prunes pairs by.
 */
import type { TraceEntry } from '../../simulator/world/trace.js';
import { stepKind, type StepKind } from './stepKind.js';
import { stepTouches } from './stepTouches.js';
import type { WindowPoint } from './windowFaults.js';

export interface CrashPoint extends WindowPoint {
  when: 'before' | 'after';
  kind: StepKind;
  /** The step's trace line, for the reader. */
  line: string;
  /** The step's position in the trace. */
  seq: number;
  /** What the step touches (stepTouches.ts): the keys, files, store entries and leases its lines name. */
  touches: readonly string[];
}

/**
 * Every crash point of a trace after position `afterSeq`: each worker step, before and after; with
 * what the step asked of the service and the store (their trace lines follow it), the keys the
 * same worker's previous step put in the store, and what it touches (`names`: the task's keys and
 * resources, dependencyNames).
 */
export function crashPoints(trace: readonly TraceEntry[], afterSeq = -1, names: readonly string[] = []): CrashPoint[] {
  const points: CrashPoint[] = [];
  const lines: { op: string; detail: string; after: string[]; points: CrashPoint[] }[] = [];
  let current: { requests: number[]; storeCalls: number[]; puts: string[]; after: string[] } | undefined;
  const lastPuts = new Map<string, string[]>();
  for (const entry of trace) {
    if (entry.actor === 'service' && entry.op === 'receive') {
      const request = /^#(\d+)/.exec(entry.detail)?.[1];
      if (request !== undefined) current?.requests.push(Number(request));
      current?.after.push(entry.detail);
    }
    if (entry.actor === 'store') {
      const call = /^#(\d+) \S+ (put|delete) (\S+).* → ok/.exec(entry.detail) ?? /^#(\d+)/.exec(entry.detail);
      // (a store line that is no call, its restart, names none)
      if (call?.[1] !== undefined) current?.storeCalls.push(Number(call[1]));
      if (call?.[3] !== undefined && call[2] === 'put') current?.puts.push(call[3]);
      if (call?.[1] !== undefined) current?.after.push(entry.detail);
    }
    if (entry.step === undefined || entry.op.endsWith(':result') || !entry.actor.startsWith('worker-')) continue;
    const actor = `${entry.actor}#${entry.incarnation ?? 0}`;
    const window = { requests: [] as number[], storeCalls: [] as number[], puts: [] as string[], after: [] as string[] };
    const storeKeys = lastPuts.get(actor) ?? [];
    lastPuts.set(actor, window.puts);
    current = window;
    if (entry.seq <= afterSeq) continue;
    const at = { pid: Number(entry.actor.slice('worker-'.length)), incarnation: entry.incarnation ?? 0, step: entry.step, globalStep: entry.globalStep ?? 0, kind: stepKind(entry.op, entry.detail), line: `${entry.op} ${entry.detail}`, seq: entry.seq, touches: [] as string[] };
    const pair: CrashPoint[] = [{ ...at, when: 'before', requests: window.requests, storeCalls: window.storeCalls, storeKeys }, { ...at, when: 'after', requests: window.requests, storeCalls: window.storeCalls, storeKeys }];
    points.push(...pair);
    lines.push({ op: entry.op, detail: entry.detail, after: window.after, points: pair });
  }
  // A step's touches are known once the service's and the store's lines after it are read.
  for (const line of lines) {
    const touches = stepTouches(line.op, line.detail, line.after, names);
    for (const point of line.points) point.touches = touches;
  }
  return points;
}
