/**
 * The answers of a confirmation's service and store, held until the simulation would deliver them.
 * There, an answer arrives its latency (plus a delay fault's) later in virtual time, and virtual
 * time moves only when no worker can take a step: whatever another worker or call can do goes
 * first. Here each answer is held until the parent finds every worker blocked with no step asked
 * for; then every answer due at the earliest virtual instant goes out together (the simulation
 * fires them together, then the workers run). A delayed one also waits out its delay in real time:
 * the journal's own timeouts are real timers.
 */
interface HeldAnswer {
  /** When the simulation would deliver it: virtual time when it was asked for, plus latency and delay. */
  dueMs: number;
  order: number;
  /** performance.now() before which it may not go (its delay, in real time). */
  readyAtMs: number;
  send: () => void;
}

export class AnswerQueue {
  private readonly held: HeldAnswer[] = [];
  private virtualMs = 0;
  private order = 0;
  private wakeAt: ReturnType<typeof setTimeout> | undefined;

  /** `wake`: called when an answer was held, or one has waited out its delay: the parent looks whether it may go. */
  constructor(private readonly wake: () => void) {}

  hold(send: () => void, latencyMs: number, delayMs = 0): void {
    this.held.push({ dueMs: this.virtualMs + latencyMs + delayMs, order: this.order++, readyAtMs: performance.now() + delayMs, send });
    queueMicrotask(this.wake); // after the request's own bookkeeping
  }

  /**
   * Every worker is blocked and none asks for a step: the answers due first go out (true), or none
   * is held (false), or the first is still waiting out its delay (false; wake comes when it may go).
   */
  releaseDue(): boolean {
    if (this.held.length === 0) return false;
    this.held.sort((a, b) => a.dueMs - b.dueMs || a.order - b.order);
    const first = this.held[0] as HeldAnswer;
    const waitMs = first.readyAtMs - performance.now();
    if (waitMs > 0) {
      this.wakeAt ??= setTimeout(() => {
        this.wakeAt = undefined;
        this.wake();
      }, Math.ceil(waitMs));
      return false;
    }
    this.virtualMs = Math.max(this.virtualMs, first.dueMs);
    const now = performance.now();
    const due = this.held.filter((h) => h.dueMs === first.dueMs && h.readyAtMs <= now);
    for (const h of due) this.held.splice(this.held.indexOf(h), 1);
    for (const h of due) h.send();
    return true;
  }

  close(): void {
    clearTimeout(this.wakeAt);
  }
}
