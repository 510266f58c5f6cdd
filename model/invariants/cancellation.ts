/**
 * What the cancel invariants share: when the user's cancel landed (the trace's `user cancel` line;
 * its file is `<task id>.cancel`), and every look a worker incarnation took at that file.
 */
import type { JudgeInput, TraceLine } from '../evidence.js';
import { taskIdOf } from './leases.js';

export const cancelFileFor = (input: JudgeInput): string => `${taskIdOf(input)}.cancel`;

/** The trace position where the cancel landed, if the task was cancelled. */
export function cancelledAt(input: JudgeInput): number | undefined {
  return input.trace.find((line) => line.actor === 'user' && line.op === 'cancel')?.seq;
}

/** The incarnation a worker line belongs to: worker-<pid>#<incarnation>, as requests name their sender. */
export function incarnationOf(line: TraceLine): string | undefined {
  if (!line.actor.startsWith('worker-')) return undefined;
  return line.incarnation !== undefined ? `${line.actor}#${line.incarnation}` : line.actor.includes('#') ? line.actor : undefined;
}

/** Every step a worker took that touched the cancel file (a stat, a read, an open): its checks. */
export function cancelChecks(input: JudgeInput): { seq: number; by: string }[] {
  const file = cancelFileFor(input);
  return input.trace.flatMap((line) => {
    const by = incarnationOf(line);
    const isStep = !line.op.endsWith(':result') && line.op !== 'escape';
    return by !== undefined && isStep && (line.detail === file || line.detail.startsWith(`${file} `)) ? [{ seq: line.seq, by }] : [];
  });
}
