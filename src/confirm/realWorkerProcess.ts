/**
 * One worker process of a confirmation, as its parent tracks it: started plainly (fork) or under
 * strace (its real system calls logged for the disk model), and killed with SIGKILL — under strace
 * the worker itself first (its own pid, from its hello), then strace.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CODE_ROOT } from '../ownFiles.js';
import { WAITS, type FromWorker, type ToWorker, type WorkerStart } from './protocol.js';
import { straceArgs } from './straceCommand.js';

/** The real worker's entry: it loads durasim's module graph, so no TypeScript loader boots in every process. */
export const REAL_WORKER_BOOT = join(CODE_ROOT, 'src', 'confirm', 'realWorkerBoot.mjs');

export interface RealWorker {
  name: string;
  pid: number;
  incarnation: number;
  child: ChildProcess;
  /** The worker process's own pid (under strace, `child` is strace). */
  tracee?: number;
  sideFile: string;
  /** Its steps asked for and not yet granted, in the order they came (a process serving two calls may ask twice). */
  asks: { op: string; detail: string }[];
  /**
   * Whether code of it may be running: from its start, a step's completion or a second call until
   * every call is blocked — on an ask (told at once while one call is under way, by an "idle" report
   * while more are), on the world (a request, a sleep, a pause: at the grant; a store call: on its
   * arrival), or on another call.
   */
  running: boolean;
  /** Calls of run() under way, as far as the parent knows (its 'beforeExit' listeners count as one). */
  calls: number;
  /** Granted store calls that have not arrived at the store yet: the worker runs until they do. */
  storePending: number;
  /** Messages sent to it ("go", "call-again"): an "idle" report that saw fewer is stale. */
  sent: number;
  /** Its last call of run() returned: a concurrent call now finds nothing under way. */
  ending: boolean;
}

/** Grants the worker's first ask its step ("go": the worker hands it to its asks in order): what it asked. */
export function grant(w: RealWorker): { op: string; detail: string } {
  const asked = w.asks.shift() as { op: string; detail: string };
  if (asked.op.startsWith('store.')) w.storePending++;
  w.running = !WAITS.has(asked.op);
  w.sent++;
  if (w.child.connected) w.child.send({ type: 'go' } satisfies ToWorker, () => {}); // a worker killed meanwhile: its exit comes next
  return asked;
}

/** What a message from the worker says of its state (hello, pause and refused also mean something to the caller). */
export function heard(w: RealWorker, message: FromWorker): void {
  if (message.type === 'ask') {
    w.asks.push({ op: message.op, detail: message.detail });
    if (w.calls === 1) w.running = false; // its one call is blocked; with more, "idle" says when all are
  } else if (message.type === 'pause') w.running = false;
  else if (message.type === 'idle') {
    if (message.seen === w.sent) w.running = false;
  } else if (message.type === 'returned') {
    w.calls--;
    w.running = true; // the call left may run on: its ask, or "idle", says when it does not
  } else if (message.type === 'ending') {
    w.ending = true;
    w.running = true;
  } else if (message.type === 'refused') w.calls--;
  else if (message.type === 'resumed') w.running = !WAITS.has(message.op); // a paused request or sleep waits on the world next
  // done: the step's call runs on — unless another call of the process has a step asked for: as
  // simulated, that step is granted next without waiting for this call's continuation.
  else if (message.type === 'done') w.running = w.asks.length === 0;
}

/** Hands the worker a concurrent call: one more call of run() under way, running until it blocks. */
export function callAgain(w: RealWorker): void {
  w.calls++;
  w.running = true;
  w.sent++;
  if (w.child.connected) w.child.send({ type: 'call-again' } satisfies ToWorker, () => {}); // a worker killed meanwhile: its exit comes next
}

/** Whether the worker may be running code: the parent grants no step while one may. */
export const mayRun = (w: RealWorker): boolean => w.running || w.storePending > 0;

/** Starts a worker process in `dir` with `env`: under strace writing `straceLog` when given (io_uring off, so libuv's file calls are system calls strace sees). */
export function startWorkerProcess(start: WorkerStart, dir: string, env: NodeJS.ProcessEnv, straceLog?: string): ChildProcess {
  const stdio: ['ignore', 'ignore', 'pipe', 'ipc'] = ['ignore', 'ignore', 'pipe', 'ipc'];
  if (straceLog !== undefined) return spawn('strace', [...straceArgs(straceLog), process.execPath, REAL_WORKER_BOOT, JSON.stringify(start)], { cwd: dir, env: { ...env, UV_USE_IO_URING: '0' }, stdio });
  return fork(REAL_WORKER_BOOT, [JSON.stringify(start)], { cwd: dir, execArgv: [], env, stdio });
}

/** Kills a worker with SIGKILL: the traced process first, then its strace (or the plain child). */
export function killWorker(w: RealWorker): void {
  if (w.tracee !== undefined) {
    try {
      process.kill(w.tracee, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  w.child.kill('SIGKILL');
}
