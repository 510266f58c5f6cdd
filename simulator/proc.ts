/**
 * Proc: one incarnation of a worker as the scheduler sees it — its queued env calls (pending), the
 * calls in flight (a fetch awaiting its response, a sleep), its timers, and whether it holds the turn.
 */
import type { Escape } from './ambientGuard.js';
import type { Timer } from './clock.js';

export type Outcome<T> = { ok: true; value: T; note?: string } | { ok: false; error: unknown; note?: string };

export interface PendingStep {
  op: string;
  detail: string;
  start: (complete: (outcome: Outcome<unknown>) => void) => void | Promise<void>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class Proc {
  alive = true;
  done = false;
  running = false;
  calls = 0;
  readonly pending: PendingStep[] = [];
  readonly inFlight = new Map<number, string>();
  readonly timers = new Set<Timer>();
  constructor(
    private readonly escapes: (proc: Proc, api: string) => Escape,
    readonly pid: number,
    readonly incarnation: number,
  ) {}
  get name(): string {
    return `worker-${this.pid}#${this.incarnation}`;
  }
  /** Called by the ambient guard when this incarnation reached around env. */
  onEscape(api: string): Escape {
    return this.escapes(this, api);
  }
}
