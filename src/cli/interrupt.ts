/**
 * Ctrl-C and SIGTERM (a CI job cancelled) keep a check's work. The first signal asks the check to
 * stop: it draws no more runs, lets those under way end, shrinks what it found as far as it got,
 * writes its reports marked "interrupted after N of M runs", and exits 130 (SIGINT) or 143
 * (SIGTERM). A second signal exits at once, with the same code, and writes nothing more.
 *
 * Which process gets the signal: Ctrl-C on a terminal signals the whole foreground process group
 * (npm, its shell and durasim's node alike); `kill` and CI runners signal one process — under
 * `npx durasim`, npm's, which hands it to the `sh -c` it ran durasim in. bin/durasim.mjs passes what
 * that shell gets on to this process (src/bin/parentShell.mjs).
 */
import { EXIT } from './exitCodes.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** What bin/durasim.mjs emits on this process for a signal its `sh -c` parent got (src/bin/parentShell.mjs). */
export const WRAPPER_SIGNAL = 'durasim:wrapper-signal';
/** A signal the parent shell got this soon after one of this process's own is that one (Ctrl-C signals both). */
const SAME_SIGNAL_MS = 1000;

/** The exit code of a run a signal stopped: 128 + the signal's number, as a shell reports it. */
export const SIGNAL_EXIT: Record<StopSignal, number> = { SIGINT: EXIT.interrupted, SIGTERM: EXIT.terminated };

export class Interrupt {
  /** The first signal, once one came. */
  signal: StopSignal | undefined;
  private readonly handlers = new Map<string, (signal?: unknown) => void>();
  private lastOwnMs = Number.NEGATIVE_INFINITY;

  /**
   * @param exitNow what a second signal does (default: the process exits at once with its code)
   * @param say where the lines about it go (default: stderr)
   */
  constructor(
    private readonly exitNow: (code: number) => void = (code) => process.exit(code),
    private readonly say: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  ) {}

  /** True once a signal came: the check stops drawing runs. */
  get requested(): boolean {
    return this.signal !== undefined;
  }

  /** The exit code the run ends with (130 or 143), once a signal came. */
  get exitCode(): number | undefined {
    return this.signal === undefined ? undefined : SIGNAL_EXIT[this.signal];
  }

  /** A signal came: the first asks the check to stop, the second exits at once. */
  receive(signal: StopSignal): void {
    if (this.signal !== undefined) {
      this.say(`${signal} again: stopping at once, without writing the reports`);
      this.exitNow(SIGNAL_EXIT[this.signal]);
      return;
    }
    this.signal = signal;
    this.say(`${signal}: no more runs are started; the runs under way end, what was found is kept, and the reports are written (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again stops at once)`);
  }

  /** A signal of this process's own. */
  own(signal: StopSignal, nowMs = performance.now()): void {
    this.lastOwnMs = nowMs;
    this.receive(signal);
  }

  /** A signal the `sh -c` that npx ran durasim in got, passed on: the same as one of this process's own that came just before it (Ctrl-C signals both), else a signal of its own. */
  fromWrapper(signal: StopSignal, nowMs = performance.now()): void {
    if (nowMs - this.lastOwnMs < SAME_SIGNAL_MS) return;
    this.receive(signal);
  }

  /** Listens for SIGINT and SIGTERM on this process, and for those its parent shell got (until uninstall). */
  install(): this {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const handler = (): void => this.own(signal);
      this.handlers.set(signal, handler);
      process.on(signal, handler);
    }
    const wrapper = (signal: unknown): void => {
      if (signal === 'SIGINT' || signal === 'SIGTERM') this.fromWrapper(signal);
    };
    this.handlers.set(WRAPPER_SIGNAL, wrapper);
    process.on(WRAPPER_SIGNAL as 'message', wrapper);
    return this;
  }

  /** Stops listening: a signal after the check does what it did before it. */
  uninstall(): void {
    for (const [event, handler] of this.handlers) process.off(event as 'message', handler);
    this.handlers.clear();
  }
}
