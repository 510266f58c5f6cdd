/**
 * The turn: whose code runs right now. Every piece of journal code runs in the async context of
 * the process it belongs to (AsyncLocalStorage): an incarnation's run() is started in its own
 * context, and every promise continuation, callback and timer it schedules inherits it, so code
 * is charged to the process that wrote it even when several processes' promise chains interleave,
 * and even after that process died (its code then runs on as a ghost that can reach nothing).
 * The world fires what it owes a process (a timer, an abort) in that process's context, and
 * inspect() runs in a context of its own. The guards ask the holder what a call may do: served by
 * the simulated world (its disk, clock, randomness, service and process identity), or refused as
 * an escape.
 *
 * Code in no context: in a thread that runs journals (a pool worker: closeThread()), the guards fail
 * closed. Journal code can run with no turn — a cleared async context, a callback Node calls from
 * nowhere (a finalizer, an async hook, a message listener, stack formatting), a getter or a
 * toString that durasim's own code triggers — so a guarded call no turn holds is refused as an
 * escape (the no-turn holder, charged to the run under way; during a run its clock reads are the
 * virtual clock's, as a module's load is served: durasim's own disk work stamps times), unless durasim's own code makes it
 * through a machinery runner (claimMachinery): a capability handed out only while the thread is
 * not yet closed, before any journal code loads, so no journal can hold one; what such work
 * schedules runs in its context, which nothing handed to a journal is made in. In any other thread
 * (durasim's main thread, a test runner's) code in no context is not a journal's and passes through.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { escapeReason } from './escapeCatalog.js';

export interface Escape {
  api: string;
  /** Worker slot; -1 for inspect(), -2 for code no simulated process was running (NO_TURN). */
  pid: number;
  incarnation: number;
  message: string;
  /** What to do instead, where the API's own fix (escapeFix) would mislead. */
  fix?: string;
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

/** This thread runs journals: code in no turn is refused (see above). */
let closed = false;

/**
 * The holder of durasim's own work in a closed thread (a machinery runner's): every guarded call is
 * the real one, and the process it sees is the real process. What that work schedules inherits it,
 * as journal code inherits its turn; no journal code is ever handed anything made in it.
 */
const MACHINERY: TurnHolder = {
  simulated: { pid: process.pid, cwd: process.cwd(), env: process.env as Record<string, string> },
  onEscape(api) {
    throw new Error(`durasim's own work was refused ${api}`);
  },
  exit: () => {},
  serve: (_api, _args, _thisArg, _newTarget, real) => real(),
};

/** The run under way (simulate() sets it): where code no turn holds is charged, and the virtual time it reads. */
export interface NoTurnSink {
  escape(escape: Escape): void;
  nowMs(): number;
}
let noTurnSink: NoTurnSink | null = null;
/** The clock reads code no turn holds is served during a run (memfs stamps the files durasim's own work touches). */
const NO_TURN_CLOCK = new Set(['new Date()', 'Date()', 'Date.now']); // allow-ambient: names what it serves
const heldNoTurn: Escape[] = [];

/** Where a call no turn held came from, after its API's reason. */
export const NO_TURN = 'from code no simulated process was running (a callback Node called on its own — a finalizer, an async hook, a message listener, stack formatting — or code that left its async context)';
export const NO_TURN_FIX = "Make the call from the journal's own code (run(), inspect(), and the callbacks, timers and listeners they set up): durasim serves nothing to code no simulated process runs.";

const DEBUG_NO_TURN = process.env.DURASIM_DEBUG_NOTURN;
/** The holder of code no turn holds in a closed thread: it is served nothing, and every guarded call it makes is an escape. */
const NO_TURN_HOLDER: TurnHolder = {
  simulated: { pid: 0, cwd: '/', env: {}, listeners: new Map() },
  serve: (api) => (noTurnSink !== null && NO_TURN_CLOCK.has(api) ? noTurnSink.nowMs() : NOT_SERVED),
  onEscape(api) {
    if (DEBUG_NO_TURN) { const l = Error.stackTraceLimit; Error.stackTraceLimit = 40; process.stderr.write(`NOTURN ${api}\n${new Error().stack}\n`); Error.stackTraceLimit = l; }
    const escape: Escape = { api, pid: -2, incarnation: 0, message: `${escapeReason(api)}, ${NO_TURN}`, fix: NO_TURN_FIX };
    if (noTurnSink !== null) noTurnSink.escape(escape);
    else heldNoTurn.push(escape);
    return escape;
  },
  exit: () => {},
};

/**
 * The holder the guards ask: the turn's; in a closed thread with no turn, the no-turn holder
 * (unless durasim's own work runs through a machinery runner); else null: pass through.
 */
export function turnHolder(): TurnHolder | null {
  const holder = context.getStore();
  if (holder != null) return holder;
  return closed ? NO_TURN_HOLDER : null;
}

/** Whether `holder` is the no-turn holder (code no simulated process runs, in a closed thread). */
export function isNoTurn(holder: TurnHolder | null): boolean {
  return holder === NO_TURN_HOLDER;
}

/** Whether code under `holder` is a journal's: a process's, inspect()'s, a module's load, or code no turn holds in a closed thread. */
export function isJournalCode(holder: TurnHolder | null): boolean {
  return holder !== null && holder !== MACHINERY;
}

/**
 * Makes this thread one that runs journals, for good: from now on a guarded call no turn holds is
 * refused, and no machinery runner is handed out. Called before any journal code is evaluated.
 */
export function closeThread(): void {
  closed = true;
}

/**
 * A machinery runner: `run` (durasim's own work, which calls no journal code; it may be
 * asynchronous) and what it schedules pass the guards of a closed thread, as the real calls.
 * Claimed by durasim's modules as they load, before the thread is closed; a claim after that (a
 * journal importing the sandbox) throws.
 */
export function claimMachinery(): <T>(run: () => T) => T {
  if (closed) throw new Error('a machinery runner is claimed only before the thread runs journals');
  return (run) => context.run(MACHINERY, run);
}

/**
 * While a run is under way: the escapes of code no turn holds are charged to it (`sink`), those
 * made since the last run first; null when it ends.
 */
export function chargeNoTurnTo(sink: NoTurnSink | null): void {
  noTurnSink = sink;
  if (sink !== null) for (const escape of heldNoTurn.splice(0)) sink.escape(escape);
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
