/**
 * StallWatch: the simulator's one look at the real event loop. A healthy run advances in
 * microtasks only, so a check queued on the real event loop (allow-ambient) fires only when every worker is stuck on
 * something outside the world (real I/O, a promise nothing resolves). After `turns` such
 * checks during the same wait, the run is declared stalled. The pending check is cleared when the
 * run ends: a run that never yields would otherwise leave one per world, each holding it alive.
 */
const realSetImmediate = globalThis.setImmediate; // allow-ambient: captured before the ambient guard wraps it
const realClearImmediate = globalThis.clearImmediate; // allow-ambient: pairs with the above

export class StallWatch {
  private handle: ReturnType<typeof realSetImmediate> | undefined;
  private watchedWait = -1;
  private turns = 0;

  /** `currentWait` returns the id of the wait in progress, or null when nothing waits. */
  constructor(
    private readonly currentWait: () => number | null,
    private readonly onStall: () => void,
    private readonly limit: number,
    /** Called at every real event-loop turn the watch sees while something waits. */
    private readonly onTurn: () => void = () => {},
  ) {}

  arm(): void {
    if (this.handle !== undefined) return;
    const check = (): void => {
      this.handle = undefined;
      const wait = this.currentWait();
      if (wait === null) return;
      this.onTurn();
      if (wait !== this.watchedWait) {
        this.watchedWait = wait;
        this.turns = 0;
      }
      if (++this.turns < this.limit) {
        this.handle = realSetImmediate(check);
        return;
      }
      this.onStall();
    };
    this.handle = realSetImmediate(check);
  }

  clear(): void {
    if (this.handle !== undefined) realClearImmediate(this.handle);
    this.handle = undefined;
  }
}
