/**
 * The worker steps of a simulated and a real run, side by side: which step of which call of which
 * worker incarnation each is, and where the two worlds part. A step is the same step in both
 * worlds when the same incarnation took it as its n-th step, with the same call of run() and the
 * same operation (the step's detail — bytes, times, random names — is not compared).
 *
 * Where the worlds part, either the program did something else (another operation at that
 * point), or the same steps came in another order: two calls of one process (a concurrent call),
 * or two workers, taking their steps as real time let them. "Another order" is told by the steps
 * themselves: at the point where the worlds part, the step each world took is, in the other world,
 * the next step of its own call (its own incarnation and call of run(), at the same rank there).
 */
import type { TraceLine } from '../../model/evidence.js';

/** A worker's step, in either world. */
export interface WorkerStep {
  /** The incarnation, as worker-<pid>#<incarnation>. */
  worker: string;
  step: number;
  op: string;
  /** The call of run() that took it: 0, the first; 1, a concurrent call's. */
  call: number;
}

/** A trace line of either world: a worker's step carries its number (and, in a real run, its call). */
export type StepLine = TraceLine & { step?: number; call?: number };

/** "worker-0#1 step 3 fs.rename": how both worlds' disk-call logs name the step (simulator/disk/diskCallLog.ts). */
export const markOf = (s: WorkerStep): string => `${s.worker} step ${s.step} ${s.op}`;

/** The step as the reader sees it: its mark, and which call of run() took it when that is not the first. */
export const stepName = (s: WorkerStep): string => `${markOf(s)}${s.call > 0 ? ` (call ${s.call + 1} of run())` : ''}`;

/**
 * The worker steps of a trace, in order: a simulated one (its steps' calls, when not the first, in
 * `calls` by trace position: SimulationResult.stepCalls) or a real one (each line carries its call).
 */
export function workerSteps(trace: readonly StepLine[], calls: Readonly<Record<number, number>> = {}): WorkerStep[] {
  return trace
    .filter((l) => l.actor.startsWith('worker-') && l.step !== undefined && !l.op.endsWith(':result') && l.op !== 'timer')
    .map((l) => ({ worker: `${l.actor}#${l.incarnation ?? 0}`, step: l.step as number, op: l.op, call: l.call ?? calls[l.seq] ?? 0 }));
}

const same = (a: WorkerStep | undefined, b: WorkerStep | undefined): boolean => a !== undefined && b !== undefined && a.worker === b.worker && a.step === b.step && a.op === b.op && a.call === b.call;

export type StepComparison =
  | { kind: 'same' }
  /** At step `at` the worlds took different steps (or one had none left). `anotherOrder`: the same steps of their own calls, in another interleaving. */
  | { kind: 'parted'; at: number; anotherOrder: boolean };

/** Which call of which incarnation a step belongs to. */
const threadOf = (s: WorkerStep): string => `${s.worker}/${s.call}`;

/** The op of `thread`'s `rank`-th step in `steps`. */
function rankedOp(steps: readonly WorkerStep[], thread: string, rank: number): string | undefined {
  let seen = 0;
  for (const s of steps) {
    if (threadOf(s) !== thread) continue;
    if (seen++ === rank) return s.op;
  }
  return undefined;
}

/** Where the two worlds' worker steps part, and whether that is the same steps in another order. */
export function compareSteps(simulated: readonly WorkerStep[], real: readonly WorkerStep[]): StepComparison {
  const n = Math.max(simulated.length, real.length);
  let at = 0;
  while (at < n && same(simulated[at], real[at])) at++;
  if (at === n) return { kind: 'same' };
  const a = simulated[at];
  const b = real[at];
  if (a === undefined || b === undefined) return { kind: 'parted', at, anotherOrder: false };
  // Each world's step there is the next step of its own call in the other world too: the calls (or workers) took turns otherwise.
  const rank = (steps: readonly WorkerStep[], s: WorkerStep): number => steps.slice(0, at).filter((x) => threadOf(x) === threadOf(s)).length;
  const anotherOrder = threadOf(a) !== threadOf(b) && rankedOp(real, threadOf(a), rank(simulated, a)) === a.op && rankedOp(simulated, threadOf(b), rank(real, b)) === b.op;
  return { kind: 'parted', at, anotherOrder };
}
