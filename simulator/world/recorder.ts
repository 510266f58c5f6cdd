/**
 * Recorder: the run's trace and payload, as the world writes them — a supervisor's line, a worker's
 * step and its result, console output (bounded), secrets masked once the task carries a token. The
 * world extends it: every neighbour records through the world (host.ts), and the step path's
 * entries are built without a spread.
 */
import { maskSecrets } from '../../model/contract/secret.js';
import type { DiskLane } from '../disk/diskLane.js';
import { VirtualClock } from './clock.js';
import type { Proc } from './proc.js';
import type { TraceEntry } from './trace.js';

/** Console output a run keeps in its trace: per write, and in all. */
export const OUTPUT_ENTRY_CHARS_MAX = 2_000;
export const OUTPUT_RUN_CHARS_MAX = 64_000;

export class Recorder {
  readonly clock = new VirtualClock();
  readonly trace: TraceEntry[] = [];
  masksSecrets = false; // with a task that carries an access token: the trace and the exit messages show it masked
  /** Every byte the journal wrote or sent, tagged with its trace position (the trace shows previews; its hash covers these). */
  readonly payload: (string | Uint8Array)[] = [];
  /** Notes the files, visible and durable, after each entry that changed them (WorldOptions.diskLane). */
  diskLane?: DiskLane;
  /** Characters of console output kept in this run's trace so far (recordOutput). */
  private outputChars = 0;

  constructor(private readonly outputText?: (text: string) => string) {}

  /**
   * What an incarnation wrote to its stdout or stderr (console.log and friends): a trace entry of its
   * own at the moment it was written — not a step, so no crash lands on it and nothing else moves.
   * Bounded: an entry keeps its first OUTPUT_ENTRY_CHARS_MAX characters, a run its first OUTPUT_RUN_CHARS_MAX.
   */
  protected recordOutput(proc: Proc, stream: 'stdout' | 'stderr', text: string): void {
    if (!proc.alive || text.length === 0 || this.outputChars >= OUTPUT_RUN_CHARS_MAX) return;
    const written = this.outputText ? this.outputText(text) : text;
    const body = written.endsWith('\n') ? written.slice(0, -1) : written;
    const kept = Math.min(body.length, OUTPUT_ENTRY_CHARS_MAX, OUTPUT_RUN_CHARS_MAX - this.outputChars);
    this.outputChars += kept;
    const notes = [...(kept < body.length ? [`${body.length - kept} more characters not kept`] : []), ...(this.outputChars >= OUTPUT_RUN_CHARS_MAX ? [`nothing more of this run's output is kept past ${OUTPUT_RUN_CHARS_MAX} characters`] : [])];
    const cut = notes.length > 0 ? ` … (${notes.join('; ')})` : '';
    this.record({ actor: proc.actor, incarnation: proc.incarnation, op: stream, detail: `${body.slice(0, kept)}${cut}` });
  }

  record(entry: Omit<TraceEntry, 'seq' | 'timeMs'>): void {
    this.diskLane?.note(this.trace.length - 1);
    this.trace.push(this.masksSecrets ? { seq: this.trace.length, timeMs: this.clock.nowMs, ...entry, detail: maskSecrets(entry.detail) } : { seq: this.trace.length, timeMs: this.clock.nowMs, ...entry });
  }

  /**
   * With WorldOptions.diskCalls: the worker steps made by a call of run() other than the first, by
   * their trace position (sandbox/turn.ts callOfTurn). Kept beside the trace, never in it.
   */
  stepCalls?: Record<number, number>;

  /** A worker's step: the entry record() would make, built in its key order without a spread (the step path's). */
  recordStep(proc: Proc, step: number, globalStep: number, op: string, detail: string, call = 0): void {
    this.diskLane?.note(this.trace.length - 1);
    if (call !== 0 && this.stepCalls) this.stepCalls[this.trace.length] = call;
    this.trace.push({ seq: this.trace.length, timeMs: this.clock.nowMs, actor: proc.actor, incarnation: proc.incarnation, step, globalStep, op, detail: this.masksSecrets ? maskSecrets(detail) : detail });
  }

  /** What a worker's step gave, when it says something (an error code, a status): the entry record() would make. */
  recordResult(proc: Proc, step: number, op: string, note: string): void {
    this.diskLane?.note(this.trace.length - 1);
    this.trace.push({ seq: this.trace.length, timeMs: this.clock.nowMs, actor: proc.actor, incarnation: proc.incarnation, step, op: `${op}:result`, detail: this.masksSecrets ? maskSecrets(note) : note });
  }

  /** Keeps the bytes the journal wrote or sent for the payload hash, tagged with the trace position. */
  notePayload(data: string | Uint8Array): void { this.payload.push(`${this.trace.length}:`, data); }

}
