/**
 * The turn: whose code runs right now. Every piece of journal code runs in the async context of
 * the process it belongs to (AsyncLocalStorage): an incarnation's run() is started in its own
 * context, and every promise continuation, callback and timer it schedules inherits it, so code
 * is charged to the process that wrote it even when several processes' promise chains interleave,
 * and even after that process died (its code then runs on as a ghost that can reach nothing).
 * The world fires what it owes a process (a timer, an abort) in that process's context, and
 * inspect() runs in a context of its own. The guards ask the holder what a call may do: served by
 * the simulated world (its disk, clock, randomness, service and process identity), or refused as
 * an escape. Code in no context (the simulator's own machinery, or code outside any simulation)
 * passes straight through.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Escape {
  api: string;
  /** Worker slot; -1 for inspect(). */
  pid: number;
  incarnation: number;
  message: string;
}

/** What a simulated process looks like from inside: served instead of the real process's values. */
export interface SimulatedProcess {
  /** A pid of its own, fresh for every incarnation (a restarted process gets a new pid). */
  readonly pid: number;
  readonly cwd: string;
  /** The scenario's environment; writes stay in this incarnation, as in a real process. */
  readonly env: Record<string, string>;
  /** The process's own listeners (process.on('exit', …) and the like), by event: they die with the incarnation. */
  readonly listeners?: Map<string, ProcessListener[]>;
}

/** A listener the journal put on its simulated process; `once` ones are removed when they run. */
export interface ProcessListener {
  fn: (...args: unknown[]) => unknown;
  once: boolean;
}

/** Returned by `serve` when the world does not serve that API: the call is an escape. */
export const NOT_SERVED: unique symbol = Symbol('durasim.notServed');

export interface TurnHolder {
  readonly simulated: SimulatedProcess;
  /** The holder under which a journal's module loads (its top-level code): refusals then say so. */
  readonly loading?: boolean;
  /** Records the escape (and the trace line) and returns it. */
  onEscape(api: string): Escape;
  /** process.exit(code) from the journal: the incarnation ends here. */
  exit(code: number): void;
  /** What the journal wrote to its stdout or stderr (console.log and friends); a holder without it lets the write through. */
  output?(stream: 'stdout' | 'stderr', text: string): void;
  /**
   * The simulated world's answer to a call of `api` (a function, class or value the sandbox
   * guards), or NOT_SERVED. `newTarget` is set for a `new` call; `real` makes the real call (a
   * holder that is a real process, as `durasim confirm` runs one, counts the call and makes it).
   */
  serve?(api: string, args: readonly unknown[], thisArg: unknown, newTarget: unknown, real: () => unknown): unknown;
}

const context = new AsyncLocalStorage<TurnHolder | null>();

/** Runs `run` (and everything it schedules) as `holder`'s code. */
export function runAsTurn<T>(holder: TurnHolder | null, run: () => T): T {
  return context.run(holder, run);
}

export function turnHolder(): TurnHolder | null {
  return context.getStore() ?? null;
}

/** Runs simulator code that a journal calls synchronously (a disk view's read, a served call) outside the journal's turn. */
export function outsideTurn<T>(run: () => T): T {
  return context.getStore() == null ? run() : context.run(null, run);
}

/**
 * Which call of run() code belongs to, in a process that serves several (a concurrent call): the
 * first is 0, the next 1, and so on. Code inherits it as it inherits its turn; where the world runs
 * a process's code later (a timer's callback, a callback-style call's answer) it runs it in the
 * call that set it up, as Node's own async context would. Nothing is judged by it: `durasim
 * confirm` tells two worlds' steps apart by it (the same step of the same call), so two calls that
 * took their steps in another order are told from a step that did otherwise.
 */
const callContext = new AsyncLocalStorage<number>();

/** Runs `run` (and everything it schedules) as code of call `call` of run() (no context is made for the first call unless another is current). */
export function runAsCall<T>(call: number, run: () => T): T {
  return call === 0 && callContext.getStore() === undefined ? run() : callContext.run(call, run);
}

/** The call of run() the running code belongs to (0: the first, or code of no call). */
export function callOfTurn(): number {
  return callContext.getStore() ?? 0;
}

let loadingDepth = 0;

/**
 * A module's evaluation, its top-level code: what it does while it loads is no step, in the
 * simulation or in a real process (src/isolation/journalInstances.ts brackets every module of a
 * journal's bundle with it), from scenario format 3 on (older files replay as they ran, such calls
 * steps). Its synchronous calls are served as any other (the simulated clock, disk, draws and
 * machine) but take no step: no step number, no crash or fault lands there, so a library that
 * reads the clock or the disk as it loads moves no later step. An asynchronous call it starts is a
 * step when it is granted, after the load, as any other.
 */
export function asModuleLoad<T>(run: () => T): T {
  loadingDepth++;
  try {
    return run();
  } finally {
    loadingDepth--;
  }
}

/** Whether a module is being evaluated right now (see asModuleLoad). */
export function moduleLoading(): boolean {
  return loadingDepth > 0;
}
