/**
 * Turns: which worker the world waits for, and waiting for it to yield. A worker runs from the
 * moment the world resumes it (its start, a completed step, a timer or an abort reaching its
 * code) until its next step (an env call or a served asynchronous Node call) or its exit. Whose
 * code it is the sandbox knows from the async context each worker's code runs in (sandbox/turn.ts).
 * A worker that awaits a served timer (a callback timer, timers/promises, AbortSignal.timeout) yields
 * once its microtasks are spent: the first real event-loop turn of the wait finds it idle, as
 * Node's event loop would. A stall watch ends a wait on something outside the world after
 * STALL_TURNS event-loop turns.
 * Work a journal started on Node's thread pool (zlib, crypto's callbacks, crypto.subtle: served
 * in node/served/) is waited for: the world makes no decision — grants no step, moves no clock,
 * stops nothing as stalled — until it is done and what its answer started has run, so the answer
 * lands at the same point of the run whenever the thread pool finishes.
 */
import { SimulatorInvariantError } from '../invariant.js';
import { getEventListeners } from 'node:events';
import { runAsCall, runAsTurn } from '../sandbox/ambientGuard.js';
import type { Proc } from './proc.js';
import { StallWatch } from './stallWatch.js';

/** Event-loop turns a worker may spend awaiting something outside the simulated world before the run is stopped. */
export const STALL_TURNS = 10_000;
export const STALL_TURNS_TEXT = '10,000';
/**
 * Where Node keeps the signals AbortSignal.any() made from a signal (an internal symbol, found once
 * by making one), or undefined where this Node keeps them elsewhere: then every abort counts as heard.
 */
const DEPENDANTS: symbol | undefined = (() => {
  const source = new AbortController().signal;
  const made = AbortSignal.any([source]);
  const symbol = Object.getOwnPropertySymbols(source).find((s) => s.description === 'kDependantSignals');
  const size = symbol === undefined ? undefined : (source as unknown as Record<symbol, { size?: number } | undefined>)[symbol]?.size;
  void made;
  return size === 1 ? symbol : undefined;
})();

/** Whether anything may hear `signal`'s abort: a listener (onabort among them), or a signal AbortSignal.any() made from it. */
function heard(signal: AbortSignal): boolean {
  if (getEventListeners(signal, 'abort').length > 0) return true;
  if (DEPENDANTS === undefined) return true;
  return ((signal as unknown as Record<symbol, { size?: number } | undefined>)[DEPENDANTS]?.size ?? 0) > 0;
}

/** Microtasks a journal's abort listener may chain before the world takes the turn back. */
const LISTENER_TICKS = 64;

export class Turns {
  /** The incarnation that last held the turn: where an unhandled rejection comes from. */
  lastRunner: Proc | null = null;
  private running = 0;
  private waiter: (() => void) | null = null;
  private waitId = 0;
  private listenersOf: Proc | null = null;
  private readonly stallWatch: StallWatch;
  /** Thread-pool work under way (see above), each settled (never rejected) when it is done. */
  private readonly outside = new Set<Promise<void>>();

  constructor(
    private readonly procs: readonly Proc[],
    onStall: () => void,
    /** A process ending after run() returned ('beforeExit' work) that has nothing left: it ends. */
    private readonly onQuiet: (proc: Proc) => void = () => {},
    private readonly quiet: (proc: Proc) => boolean = () => false,
  ) {
    this.stallWatch = new StallWatch(() => (this.waiter === null ? null : this.waitId), onStall, STALL_TURNS, () => this.yieldIdle());
  }

  /** How many workers have a step queued (counted, not collected: this runs before every decision). */
  readyCount(): number {
    let ready = 0;
    for (const proc of this.procs) if (proc.alive && !proc.done && proc.pending.length > 0) ready++;
    return ready;
  }

  /** The `choice`-th worker with a step queued, lowest pid first. */
  readyAt(choice: number): Proc {
    let seen = 0;
    for (const proc of this.procs) if (proc.alive && !proc.done && proc.pending.length > 0 && seen++ === choice) return proc;
    throw new SimulatorInvariantError(`no ready worker at choice ${choice}`);
  }

  get anyRunning(): boolean {
    return this.running > 0;
  }

  /** The world resumes `proc`: it holds the turn until it yields. */
  resume(proc: Proc): void {
    if (!proc.running) {
      proc.running = true;
      this.running++;
    }
    this.lastRunner = proc;
  }

  /**
   * At a real event-loop turn: a running worker whose microtasks are spent and that something in
   * the world can wake (a queued or running step, a timer) has yielded.
   */
  private yieldIdle(): void {
    // Thread-pool work under way: the wait goes on without counting turns (quiesce awaits it).
    if (this.outside.size > 0) {
      this.wake();
      return;
    }
    for (const proc of this.procs) {
      if (proc.running && this.quiet(proc)) this.onQuiet(proc); // what 'beforeExit' started is done: the process ends
      else if (proc.running && (proc.pending.length > 0 || proc.inFlight.size > 0 || proc.timers.size > 0)) this.yielded(proc);
    }
  }

  /** `proc` made an env call, exited or died: the world may go on once nobody runs. */
  yielded(proc: Proc): void {
    if (!proc.running) return;
    proc.running = false;
    this.running--;
    if (this.running === 0) this.wake();
  }

  /** Waits until no worker runs and no thread-pool work is under way. */
  async quiesce(): Promise<void> {
    for (;;) {
      if (this.outside.size > 0) {
        await Promise.all(this.outside);
        continue;
      }
      if (this.running === 0) return;
      await new Promise<void>((resolve) => {
        this.waitId++;
        this.waiter = resolve;
        this.stallWatch.arm();
      });
      if (this.outside.size === 0) return;
    }
  }

  /** Whether thread-pool work is under way (the world waits for it: see above). */
  get busyOutside(): boolean {
    return this.outside.size > 0;
  }

  /** Thread-pool work starts: the world waits for it until the returned `done` is called (more than once is harmless). */
  startOutside(): () => void {
    let done!: () => void;
    const work = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.outside.add(work);
    return () => {
      if (!this.outside.delete(work)) return;
      done();
    };
  }

  /** Runs journal-facing code (an abort dispatched to the journal's listeners) as `proc`'s code. */
  asTurnOf(proc: Proc, dispatch: () => void, call = 0): void {
    if (!proc.alive || proc.done) return;
    this.lastRunner = proc;
    this.listenersOf = proc;
    runAsTurn(proc, () => runAsCall(call, dispatch));
  }

  /**
   * A timeout's abort, fired by the world: as `proc`'s code when something of the journal's can
   * hear it (asTurnOf: a listener, onabort, a signal AbortSignal.any made from it), and the chains
   * its listeners start are then drained; at once when nothing listens — no code of the journal's
   * runs, so there is nothing to drain.
   */
  abortAs(proc: Proc, controller: AbortController, reason: unknown, call = 0): void {
    if (heard(controller.signal)) {
      this.asTurnOf(proc, () => controller.abort(reason), call);
      return;
    }
    if (!proc.alive || proc.done) return;
    this.lastRunner = proc; // as asTurnOf leaves it
    controller.abort(reason);
  }

  /**
   * After an abort reached the journal's own listeners: the promise chains they started run on
   * (up to LISTENER_TICKS microtasks deep) before the world goes on.
   */
  async drainListeners(): Promise<void> {
    if (this.listenersOf === null) return;
    this.listenersOf = null;
    for (let tick = 0; tick < LISTENER_TICKS; tick++) await null;
  }

  /** Everyone stops: after a stall or a broken invariant. */
  stopAll(): void {
    for (const proc of this.procs) if (proc.running) proc.running = false;
    this.running = 0;
    this.wake();
  }

  /** The run is over: no stall check may outlive it. */
  close(): void {
    this.stallWatch.clear();
  }

  private wake(): void {
    const wake = this.waiter;
    this.waiter = null;
    wake?.();
  }
}
