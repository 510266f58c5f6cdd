/**
 * Clock: virtual milliseconds.
 *
 * Rules:
 * - Time starts at `startMs` and moves only when the scheduler advances it to the next timer,
 *   which it does only when no process is ready to take a step (discrete-event simulation), or
 *   when a process blocks its thread for a while (skip: Atomics.wait).
 * - Timers due at the same millisecond fire in the order they were set, a port's messages first.
 * - Nothing here reads the real clock or schedules real timers.
 */
/** 2026-01-01T00:00:00Z: where virtual time starts (what a served clock read and env.clock.now() say at 0 ms). */
export const VIRTUAL_EPOCH_MS = 1_767_225_600_000;

/**
 * The reason a timeout's AbortSignal aborts with, as AbortSignal.timeout() gives it: a DOMException
 * named TimeoutError. Node makes it inside a timer callback, where its stack holds only Node's own
 * frames; this one holds none (capturing the simulator's frames would be most of what it costs).
 */
export function timeoutReason(): DOMException {
  const frames = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
  } finally {
    Error.stackTraceLimit = frames;
  }
}

export interface Timer {
  atMs: number;
  seq: number;
  label: string;
  fire: () => void;
  cancelled: boolean;
  /** Goes before the timers due at the same millisecond that are not (VirtualClock.at). */
  soon?: boolean;
}

export class VirtualClock {
  nowMs: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(startMs = 0) {
    this.nowMs = startMs;
  }

  /** Milliseconds since the Unix epoch, as the simulated processes' clocks read it. */
  get epochMs(): number {
    return VIRTUAL_EPOCH_MS + this.nowMs;
  }

  /**
   * Sets a timer `delayMs` from now (at least 0). Returns it, so it can be cancelled. A `soon` one
   * (a message a port delivers) goes before the other timers due at the same millisecond, after the
   * soon ones set before it.
   */
  at(delayMs: number, label: string, fire: () => void, soon = false): Timer {
    const timer: Timer = { atMs: this.nowMs + Math.max(0, delayMs), seq: this.seq++, label, fire, cancelled: false, ...(soon ? { soon: true } : {}) };
    if (soon) this.soonSet++;
    let i = this.timers.length;
    while (i > 0) {
      const before = this.timers[i - 1] as Timer;
      if (before.atMs < timer.atMs || (before.atMs === timer.atMs && (soon ? before.soon === true : true) && before.seq < timer.seq)) break;
      i--;
    }
    this.timers.splice(i, 0, timer);
    return timer;
  }

  cancel(timer: Timer): void {
    timer.cancelled = true;
  }

  /** Soon timers set and not yet taken (most runs: none, and takeSoonDue costs nothing). */
  private soonSet = 0;

  /** The soon timers due by now (a port's messages, ready at once), taken from the queue in order; cancelled ones dropped. */
  takeSoonDue(): Timer[] {
    if (this.soonSet === 0) return [];
    const taken: Timer[] = [];
    this.timers = this.timers.filter((timer) => {
      if (timer.soon !== true || timer.atMs > this.nowMs) return true;
      this.soonSet--;
      if (!timer.cancelled) taken.push(timer);
      return false;
    });
    return taken;
  }

  /** The next live timer's due time, or undefined when none is set. */
  nextDueMs(): number | undefined {
    while (this.timers.length > 0 && (this.timers[0] as Timer).cancelled) if ((this.timers.shift() as Timer).soon === true) this.soonSet--;
    return this.timers[0]?.atMs;
  }

  /**
   * A process blocked its thread for `ms` (Atomics.wait): time moves on at once. Timers that fell
   * due meanwhile fire late, as a real blocked thread delays them — the only way a timer is late.
   */
  skip(ms: number): void {
    this.nowMs += Math.max(0, ms);
    this.latePossible = true;
  }
  private latePossible = false;

  /** Moves time to the next timer and returns every live timer due then, in order (not yet fired); after a skip, the late ones with them. */
  advance(): Timer[] {
    const next = this.nextDueMs();
    if (next === undefined) return [];
    if (next < this.nowMs && !this.latePossible) throw new Error(`clock invariant broken: timer at ${next} ms is behind now ${this.nowMs} ms`);
    const due = Math.max(next, this.nowMs);
    this.nowMs = due;
    const fired: Timer[] = [];
    while (this.timers.length > 0 && (this.timers[0] as Timer).atMs <= due) {
      const timer = this.timers.shift() as Timer;
      if (timer.soon === true) this.soonSet--;
      if (!timer.cancelled) fired.push(timer);
    }
    return fired;
  }

  pendingCount(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}
