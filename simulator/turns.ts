/**
 * Turns: which worker's code runs now, and waiting for it to yield. A worker holds the turn from
 * the moment the world resumes it (its start, a completed step, an abort reaching its listeners)
 * until its next env call or its exit; the world's own code runs under no turn. While the world
 * waits, the running worker holds the sandbox's turn, so what its code reaches is charged to it;
 * a stall watch ends a wait on something outside env after STALL_TURNS event-loop turns.
 */
import { guardIsPermanent, setTurn } from './ambientGuard.js';
import type { Proc } from './proc.js';
import { StallWatch } from './stallWatch.js';

/** Event-loop turns a worker may spend awaiting something outside env before the run is stopped. */
export const STALL_TURNS = 10_000;
export const STALL_TURNS_TEXT = '10,000';
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

  constructor(
    private readonly procs: readonly Proc[],
    onStall: () => void,
  ) {
    this.stallWatch = new StallWatch(() => (this.waiter === null ? null : this.waitId), onStall, STALL_TURNS, () => {
      // Each real event-loop turn may run other code of this thread: unless the thread is the
      // simulation's alone (a pool worker), it must not run under the journal's turn.
      if (!guardIsPermanent()) setTurn(null);
    });
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
    setTurn(proc);
    this.lastRunner = proc;
  }

  /** `proc` made an env call, exited or died: the world may go on once nobody runs. */
  yielded(proc: Proc): void {
    if (!proc.running) return;
    proc.running = false;
    this.running--;
    if (this.running === 0) this.wake();
  }

  /**
   * Waits until no worker holds the turn. While it waits, the running worker holds the sandbox's
   * turn (its code runs now); the world's own code never does.
   */
  async quiesce(): Promise<void> {
    if (this.running > 0) {
      setTurn(this.procs.find((p) => p.running) ?? this.lastRunner);
      await new Promise<void>((resolve) => {
        this.waitId++;
        this.waiter = resolve;
        this.stallWatch.arm();
      });
    }
    setTurn(null);
  }

  /** Runs journal-facing code (an abort dispatched to the journal's listeners) under `proc`'s turn. */
  asTurnOf(proc: Proc, dispatch: () => void): void {
    if (!proc.alive || proc.done) return;
    setTurn(proc);
    this.lastRunner = proc;
    this.listenersOf = proc;
    try {
      dispatch();
    } finally {
      setTurn(null); // if a listener woke the worker, it gets the turn back when the world waits for it
    }
  }

  /**
   * After an abort reached the journal's own listeners: the promise chains they started run on
   * (up to LISTENER_TICKS microtasks deep) under that worker's turn. Microtasks only: a real
   * event-loop turn would let other code of this thread run under the journal's turn.
   */
  async drainListeners(): Promise<void> {
    const proc = this.listenersOf;
    if (proc === null) return;
    this.listenersOf = null;
    setTurn(proc);
    for (let tick = 0; tick < LISTENER_TICKS; tick++) await null;
    setTurn(null);
  }

  /** Everyone stops: after a stall or a broken invariant. */
  stopAll(): void {
    for (const proc of this.procs) if (proc.running) proc.running = false;
    this.running = 0;
    this.wake();
  }

  /** The run is over: no stall check may outlive it. */
  close(): void {
    setTurn(null);
    this.stallWatch.clear();
  }

  private wake(): void {
    const wake = this.waiter;
    this.waiter = null;
    wake?.();
  }
}
