/**
 * The trace of a real run, in the simulated trace's shape, so that the judge reads both worlds
 * alike: a worker's step is a line of actor `worker-<pid>` with its incarnation, its step number,
 * the operation under the simulator's name (fs.rename, fetch…) and — for a call of run() other than
 * the process's first — its call; a step's result is `<op>:result`. Everything else (the
 * supervisor, the service, the store, the user, the disk) is a line of its own actor. Every detail
 * has the task's secret masked. Beside it, the same lines as text, for the reader.
 */
import { maskSecrets } from '../../model/contract/secret.js';
import type { StepLine } from './workerSteps.js';

export class RealTrace {
  readonly trace: StepLine[] = [];
  /** Trace lines as they happened, for the reader: "  12 worker-0#0 step 3 fs.rename a.tmp → a". */
  readonly lines: string[] = [];

  /** `started`: the run's start (performance.now()); each line's timeMs counts from it. */
  constructor(private readonly started: number) {}

  /** A line of `actor` (supervisor, service, store, user, disk). */
  readonly record = (actor: string, op: string, raw: unknown): void => {
    const detail = maskSecrets(String(raw ?? ''));
    this.push({ seq: this.trace.length, actor, op, detail, timeMs: this.now() }, `${actor} ${op} ${detail}`);
  };

  /** A worker incarnation's step (or, with `:result`, what it gave): `name` is worker-<pid>#<incarnation>. */
  worker(name: string, step: number, op: string, raw: unknown, call = 0): void {
    const [actor, incarnation] = name.split('#') as [string, string];
    const detail = maskSecrets(String(raw ?? ''));
    const line: StepLine = { seq: this.trace.length, actor, incarnation: Number(incarnation), step, op, detail, timeMs: this.now() };
    if (call !== 0) line.call = call;
    this.push(line, `${name} step ${step} ${op}${call !== 0 ? ` (call ${call + 1} of run())` : ''} ${detail}`);
  }

  private now(): number {
    return performance.now() - this.started;
  }

  private push(line: StepLine, text: string): void {
    this.trace.push(line);
    this.lines.push(`${String(line.seq).padStart(4)} ${text}`);
  }
}
