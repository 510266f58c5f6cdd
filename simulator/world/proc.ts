/**
 * Proc: one incarnation of a worker as the scheduler sees it — its queued env calls (pending), the
 * calls in flight (a fetch awaiting its response, a sleep), its timers, and whether it holds the
 * turn. It is also the turn holder the sandbox asks while its journal code runs: escapes are
 * charged to it, and it serves the simulated process (its own pid, environment and work dir) and
 * the Node APIs the world serves (node/served/).
 */
import type { Escape, SimulatedProcess, TurnHolder } from '../sandbox/ambientGuard.js';
import type { Timer } from './clock.js';
import { SimulatorInvariantError } from '../invariant.js';
import { errorCode } from './trace.js';

export type Outcome<T> = { ok: true; value: T; note?: string } | { ok: false; error: unknown; note?: string };

export interface PendingStep {
  op: string;
  detail: string;
  start: (complete: (outcome: Outcome<unknown>) => void) => void | Promise<void>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** The call of run() that asked for it (sandbox/turn.ts callOfTurn): 0, the first, unless the process serves several. */
  call: number;
}

export interface ProcHooks {
  escape(proc: Proc, api: string): Escape;
  exit(proc: Proc, code: number): void;
  output(proc: Proc, stream: 'stdout' | 'stderr', text: string): void;
  /** The world's answer to a Node API the journal called (node/served/), or NOT_SERVED. */
  serve(proc: Proc, api: string, args: readonly unknown[], thisArg: unknown, newTarget?: unknown, real?: () => unknown): unknown;
}

/** The pid a simulated incarnation reports: one per incarnation, as a restarted process gets a new one. */
export function simulatedPid(slot: number, incarnation: number): number {
  return 1000 * (slot + 1) + incarnation;
}

export class Proc implements TurnHolder {
  alive = true;
  done = false;
  running = false;
  /** run() has returned and 'beforeExit' listeners started work: the process ends once nothing they started is left (turns.ts); the timers it had before them. */
  ending: false | ReadonlySet<Timer> = false;
  /** Its 'exit' listeners are running: a process.exit() among them ends nothing twice. */
  exiting = false;
  calls = 0;
  /** Calls of the journal's run() under way in this process: 1, or 2 after a concurrent-call. It ends when the last returned. */
  runsUnderWay = 0;
  /** Calls of run() started in this incarnation (each is code of its own call: sandbox/turn.ts runAsCall). */
  callsStarted = 0;
  /** The journal instance this incarnation loaded (a concurrent call runs the same one: module memory shared). */
  journal: unknown = undefined;
  /** The env this incarnation's calls of run() are handed (one per process: a second call gets the same). */
  env: unknown = undefined;
  readonly pending: PendingStep[] = [];
  /** Granted steps not yet completed, by step number (a fetch awaiting its response, a sleep). */
  readonly inFlight = new Map<number, PendingStep>();
  readonly timers = new Set<Timer>();
  /** performance.mark and measure's entries in this process (node/served/servedClock.ts). */
  readonly performanceEntries: { name: string; entryType: string; startTime: number; duration: number }[] = [];
  readonly simulated: SimulatedProcess;
  constructor(
    private readonly hooks: ProcHooks,
    readonly pid: number,
    readonly incarnation: number,
    environment: Record<string, string>,
    cwd: string,
    /** Virtual time when the incarnation started: its performance.now() counts from here. (allow-ambient: names what it serves) */
    readonly startedAtMs = 0,
  ) {
    this.simulated = { pid: simulatedPid(pid, incarnation), cwd, env: { ...environment }, listeners: new Map() };
    this.actor = `worker-${pid}`;
    this.name = `${this.actor}#${incarnation}`;
  }
  /** worker-<pid>#<incarnation>, as the trace and the reports name an incarnation. */
  readonly name: string;
  /** worker-<pid>: the actor of its trace entries. */
  readonly actor: string;
  onEscape(api: string): Escape {
    return this.hooks.escape(this, api);
  }
  exit(code: number): void {
    this.hooks.exit(this, code);
  }
  output(stream: 'stdout' | 'stderr', text: string): void {
    this.hooks.output(this, stream, text);
  }
  serve(api: string, args: readonly unknown[], thisArg: unknown, newTarget?: unknown, real?: () => unknown): unknown {
    return this.hooks.serve(this, api, args, thisArg, newTarget, real);
  }
}

/** Starts a granted step: what it throws completes it as an error (a broken simulator invariant stops the run instead). */
export async function startStep(request: PendingStep, complete: (outcome: Outcome<unknown>) => void, broke: (error: SimulatorInvariantError) => void): Promise<void> {
  try {
    await request.start(complete);
  } catch (error) {
    if (error instanceof SimulatorInvariantError) broke(error);
    else complete({ ok: false, error, note: errorCode(error) });
  }
}
