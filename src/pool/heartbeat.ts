/**
 * A worker's sign of life, in memory shared with the main thread: the worker writes at every
 * scheduling decision of the simulation it runs; the watchdog reads without waiting for the worker
 * (which may be stuck in a journal's endless loop). Where it stopped is named from the same cells.
 */
export const HEARTBEAT_CELLS = 9;
const BEATS = 0;
const GLOBAL_STEP = 1;
const PID = 2;
const INCARNATION = 3;
const OP = 4;
const BUSY = 5;
/** The worker thread's id in the kernel (Linux), so the watchdog can read the CPU it has used; 0 unknown. */
const TID = 6;
/** 1 once the worker has booted (durasim's own modules loaded, its thread guarded): before that nothing of a journal runs there. */
const READY = 7;
/** 1 while the worker does durasim's own work for a load (compiling a journal, loading durasim's modules for it): no journal code runs then. */
const OWN_WORK = 8;

/** The ops a step can be, so a blocked step can be named from an integer cell. */
const OPS = [
  'fs.open', 'fs.appendFile', 'fs.writeFile', 'fs.readFile', 'fs.rename', 'fs.link', 'fs.unlink', 'fs.mkdir', 'fs.readdir', 'fs.stat',
  'fh.appendFile', 'fh.writeFile', 'fh.readFile', 'fh.sync', 'fh.close', 'fetch', 'clock.now', 'clock.sleep', 'clock.timeout', 'random',
  'start', 'inspect',
];

export interface BlockedAt {
  globalStep: number;
  /** worker-<pid>#<incarnation>, or undefined when it blocked before any step. */
  worker?: string;
  op?: string;
}

export function newHeartbeat(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(HEARTBEAT_CELLS * Int32Array.BYTES_PER_ELEMENT));
}

const OP_INDEX = new Map(OPS.map((op, i) => [op, i]));

/**
 * Worker side: a beat, with the step about to run (pid -1: the scheduler itself). Plain writes:
 * this runs at every step, and the watchdog needs them visible within its 100 ms, not ordered.
 */
export function beat(cells: Int32Array, globalStep: number, pid: number, incarnation: number, op: string): void {
  cells[GLOBAL_STEP] = globalStep;
  cells[PID] = pid;
  cells[INCARNATION] = incarnation;
  cells[OP] = OP_INDEX.get(op) ?? -1;
  cells[BEATS] = (cells[BEATS] as number) + 1;
}

/** Worker side: a sign of life with no step (while a journal's modules load: the event loop turns, so the load is alive). */
export function pulse(cells: Int32Array): void {
  Atomics.add(cells, BEATS, 1);
}

export function setBusy(cells: Int32Array, busy: boolean): void {
  if (busy) {
    Atomics.store(cells, PID, -1);
    Atomics.store(cells, OP, -1);
    Atomics.store(cells, GLOBAL_STEP, 0);
  }
  Atomics.store(cells, BUSY, busy ? 1 : 0);
  Atomics.add(cells, BEATS, 1);
}

/** Worker side, once at boot: its kernel thread id (0 where there is none to read). */
export function setThreadId(cells: Int32Array, tid: number | undefined): void {
  Atomics.store(cells, TID, tid ?? 0);
}

/** Worker side, once at the end of its boot. */
export function setReady(cells: Int32Array): void {
  Atomics.store(cells, READY, 1);
}

/**
 * Worker side: durasim's own work for a load begins or ends. The watchdog does not count it against a
 * journal, as it does not count a boot: loading durasim's modules for a journal (its journal side's
 * graph, src/isolation/journalSideGraph.ts) evaluates them at once, and on a busy machine that alone
 * took more than a short hang timeout ("evaluating reference kept its thread for 0.0 s of its CPU time").
 */
export function setOwnWork(cells: Int32Array, own: boolean): void {
  Atomics.store(cells, OWN_WORK, own ? 1 : 0);
  Atomics.add(cells, BEATS, 1);
}

/** Main side: whether the worker is doing durasim's own work for a load. */
export function inOwnWork(cells: Int32Array): boolean {
  return Atomics.load(cells, OWN_WORK) === 1;
}

/** Main side: whether the worker has booted; the watchdog does not count a boot (durasim's own work) against a journal. */
export function isReady(cells: Int32Array): boolean {
  return Atomics.load(cells, READY) === 1;
}

/** Main side: the worker's kernel thread id, or undefined before it said or where there is none. */
export function threadIdOf(cells: Int32Array): number | undefined {
  const tid = Atomics.load(cells, TID);
  return tid > 0 ? tid : undefined;
}

/** Main side. */
export function beats(cells: Int32Array): number {
  return Atomics.load(cells, BEATS);
}

export function blockedAt(cells: Int32Array): BlockedAt {
  const pid = Atomics.load(cells, PID);
  const op = OPS[Atomics.load(cells, OP)];
  const at: BlockedAt = { globalStep: Atomics.load(cells, GLOBAL_STEP) };
  if (pid >= 0) at.worker = `worker-${pid}#${Atomics.load(cells, INCARNATION)}`;
  if (op !== undefined) at.op = op;
  return at;
}

/** "worker-0#1 after step 17 (fs.appendFile)", or where it blocked before any step. */
export function describeBlockedAt(at: BlockedAt): string {
  if (at.op === 'inspect') return `in inspect(), after global step ${at.globalStep}`;
  if (at.worker === undefined) return at.globalStep === 0 ? 'before its first step' : `after global step ${at.globalStep}`;
  if (at.op === 'start') return `${at.worker} while starting (loading its modules or in run() before its first env call)`;
  return `${at.worker} after global step ${at.globalStep}${at.op ? ` (${at.op})` : ''}`;
}
