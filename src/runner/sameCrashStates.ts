/**
 * Crash points that cannot lead to different crash states, told from the fault-free run's trace
 * (issue 53): a crash point is one of the world as it stands between two steps, so two points with
 * nothing between them that changes a byte of the disk — durable or in the page cache — or anything
 * else outside the crashed process's memory leave the same disk and the same world, and every crash
 * state (a process kill, a machine crash and its torn and per-file shapes, a kill after which the
 * task changed) is the same at both. Two such points are:
 *
 * - after a step and before the same incarnation's next step, when no line of anyone else comes
 *   between them in the trace (only the step's own `:result` line): the process ran its own code,
 *   which a crash takes with it (SQLite's page writes, each a step taken inside one synchronous
 *   call, are such pairs all along a commit);
 * - before and after a step that only reads the disk: a read, a stat, an access check, SQLite's
 *   xRead, xAccess and xFileSize (a crash between two reads leaves the image it left before them).
 *
 * The sweep (crashExplorer.ts at depth 1) tries the crash states of the first point of each run of
 * such points only; the faults that strike a step itself (an I/O error, a lost answer, every other
 * family's) are still tried at every step.
 */
import type { TraceEntry } from '../../simulator/world/trace.js';
import type { CrashPoint } from './crashPoints.js';
import { stepKind } from './stepKind.js';

/** Whether a step (its op) only reads the disk: nothing durable or volatile changes with it (SQLite's xRead, xAccess and xFileSize are reads: stepKind.ts). */
export function readsOnly(op: string, detail: string): boolean {
  return stepKind(op, detail) === 'read';
}

/**
 * For each point of `points` (crashPoints of `trace`, in their order), whether its crash states
 * are those of the point before it in the list.
 */
export function sameCrashStates(trace: readonly TraceEntry[], points: readonly CrashPoint[]): boolean[] {
  const bySeq = new Map<number, TraceEntry>(trace.map((entry) => [entry.seq, entry]));
  return points.map((point, i) => {
    const previous = points[i - 1];
    if (previous === undefined || previous.pid !== point.pid || previous.incarnation !== point.incarnation) return false;
    if (previous.when === 'before' && point.when === 'after') {
      const entry = bySeq.get(point.seq);
      return previous.seq === point.seq && entry !== undefined && readsOnly(entry.op, entry.detail);
    }
    if (previous.when !== 'after' || point.when !== 'before' || point.seq <= previous.seq) return false;
    const actor = `worker-${point.pid}`;
    for (let seq = previous.seq + 1; seq < point.seq; seq++) {
      const between = bySeq.get(seq);
      if (between === undefined) return false;
      if (between.actor !== actor || (between.incarnation ?? 0) !== point.incarnation || !between.op.endsWith(':result')) return false;
    }
    return true;
  });
}
