/**
 * Progress on long runs: a bar on a TTY (runs done, runs per second, violations; then, while a
 * counterexample shrinks, how far it got), plain lines every tenth of the budget otherwise.
 * Written to stderr so stdout stays parseable.
 */
import { perSecond } from '../report/perSecond.js';

export class Progress {
  private lastDrawMs = 0;
  private lastDecile = 0;
  private lastSweepDecile = 0;
  private lastPairsDecile = 0;
  private readonly startedMs = performance.now();

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = true,
  ) {}

  update(done: number, violations: number): void {
    if (!this.enabled) return;
    const now = performance.now();
    const rate = perSecond(done, (now - this.startedMs) / 1000);
    if (this.stream.isTTY) {
      if (now - this.lastDrawMs < 100 && done < this.total) return;
      this.lastDrawMs = now;
      const width = 24;
      const filled = Math.min(width, Math.round((done / Math.max(1, this.total)) * width));
      this.stream.write(`\r\u001b[2K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${this.total} runs · ${rate} · ${violations} violation(s) `);
      return;
    }
    const decile = Math.floor((done / Math.max(1, this.total)) * 10);
    if (decile > this.lastDecile) {
      this.lastDecile = decile;
      this.stream.write(`progress: ${done}/${this.total} runs, ${rate}, ${violations} violation(s)\n`);
    }
  }

  /**
   * While the single-fault sweep runs: crash points swept of all, states judged, runs. A redrawn
   * line on a TTY; otherwise a plain line at every tenth of the crash points.
   */
  sweeping(runs: number, states: number, points: { explored: number; of: number }): void {
    if (!this.enabled) return;
    const text = `single-fault sweep: ${points.explored}/${points.of} crash points, ${states} states judged in ${runs} runs`;
    if (this.stream.isTTY) {
      const now = performance.now();
      if (now - this.lastDrawMs < 100 && points.explored < points.of) return;
      this.lastDrawMs = now;
      this.stream.write(`\r\u001b[2K${text} `);
      return;
    }
    const decile = Math.floor((points.explored / Math.max(1, points.of)) * 10);
    if (decile > this.lastSweepDecile) {
      this.lastSweepDecile = decile;
      this.stream.write(`progress: ${text}\n`);
    }
  }

  /**
   * While the two-fault pairs run: the pairs tried of those kept, and their runs of their bound. A
   * redrawn line on a TTY; otherwise a plain line at every tenth of the bound.
   */
  pairing(runs: number, tried: number, kept: number, bound: number): void {
    if (!this.enabled) return;
    const text = `two-fault pairs: ${tried}/${kept} tried in ${runs} runs`;
    if (this.stream.isTTY) {
      const now = performance.now();
      if (now - this.lastDrawMs < 100) return;
      this.lastDrawMs = now;
      this.stream.write(`\r\u001b[2K${text} `);
      return;
    }
    const decile = Math.floor((runs / Math.max(1, bound)) * 10);
    if (decile > this.lastPairsDecile) {
      this.lastPairsDecile = decile;
      this.stream.write(`progress: ${text}\n`);
    }
  }

  /** While a counterexample shrinks, on a TTY: how far it got (the bar's line, redrawn). */
  shrinking(progress: { attempts: number; steps: number; faults: number }): void {
    if (!this.enabled || !this.stream.isTTY) return;
    const now = performance.now();
    if (now - this.lastDrawMs < 100) return;
    this.lastDrawMs = now;
    this.stream.write(`\r\u001b[2Kshrinking: ${progress.attempts} candidates tried, ${progress.steps} taken, ${progress.faults} fault${progress.faults === 1 ? '' : 's'} left `);
  }

  /** A line of its own above the bar (the bar is drawn again at the next update). */
  line(text: string): void {
    this.stream.write(this.enabled && this.stream.isTTY ? `\r\u001b[2K${text}\n` : `${text}\n`);
    this.lastDrawMs = 0;
  }

  done(): void {
    if (this.enabled && this.stream.isTTY) this.stream.write('\n');
  }
}
