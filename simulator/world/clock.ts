/**
 * Clock: virtual milliseconds.
 *
 * Rules:
 * - Time starts at `startMs` and moves only when the scheduler advances it to the next timer,
 *   which it does only when no process is ready to take a step (discrete-event simulation).
 * - Timers due at the same millisecond fire in the order they were set.
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

  /** Sets a timer `delayMs` from now (at least 0). Returns it, so it can be cancelled. */
  at(delayMs: number, label: string, fire: () => void): Timer {
    const timer: Timer = { atMs: this.nowMs + Math.max(0, delayMs), seq: this.seq++, label, fire, cancelled: false };
    let i = this.timers.length;
    while (i > 0) {
      const before = this.timers[i - 1] as Timer;
      if (before.atMs < timer.atMs || (before.atMs === timer.atMs && before.seq < timer.seq)) break;
      i--;
    }
    this.timers.splice(i, 0, timer);
    return timer;
  }

  cancel(timer: Timer): void {
    timer.cancelled = true;
  }

  /** The next live timer's due time, or undefined when none is set. */
  nextDueMs(): number | undefined {
    while (this.timers.length > 0 && (this.timers[0] as Timer).cancelled) this.timers.shift();
    return this.timers[0]?.atMs;
  }

  /** Moves time to the next timer and returns every live timer due then, in order (not yet fired). */
  advance(): Timer[] {
    const due = this.nextDueMs();
    if (due === undefined) return [];
    if (due < this.nowMs) throw new Error(`clock invariant broken: timer at ${due} ms is behind now ${this.nowMs} ms`);
    this.nowMs = due;
    const fired: Timer[] = [];
    while (this.timers.length > 0 && (this.timers[0] as Timer).atMs === due) {
      const timer = this.timers.shift() as Timer;
      if (!timer.cancelled) fired.push(timer);
    }
    return fired;
  }

  pendingCount(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}
