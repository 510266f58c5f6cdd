/**
 * The simulated disk calls beside the real ones, worker step by worker step (both logged by the
 * disk model, simulator/disk/diskCallLog.ts: the simulation's from its model of Node, the real
 * run's from strace's log of Node): the first step whose changes differ is where durasim's model of
 * Node is wrong, and the table shows both, with the system calls behind the real side.
 */
import type { DiskCallLine } from '../../simulator/disk/diskCallLog.js';

export interface CallDivergence {
  /** The worker step, as "worker-0#1 step 3 fs.rename". */
  mark: string;
  simulated: string[];
  real: string[];
}

function byMark<T>(items: readonly T[], markOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const mark = markOf(item);
    const list = out.get(mark);
    if (list) list.push(item);
    else out.set(mark, [item]);
  }
  return out;
}

/** The first of `steps` (the worker steps both worlds took alike, in order) whose disk changes differ. */
export function firstCallDivergence(simulated: readonly DiskCallLine[], real: readonly DiskCallLine[], steps: readonly string[]): CallDivergence | undefined {
  const sim = byMark(simulated, (l) => l.mark);
  const got = byMark(real, (l) => l.mark);
  for (const mark of steps) {
    const a = sim.get(mark) ?? [];
    const b = got.get(mark) ?? [];
    if (a.length !== b.length || a.some((line, i) => line.key !== b[i]?.key)) return { mark, simulated: a.map((l) => l.text), real: b.map((l) => l.text) };
  }
  return undefined;
}

/**
 * Every worker step that changed the disk, in the order the real processes took them: what the
 * simulation changed, what the real calls changed, and the system calls themselves.
 */
export function callTable(simulated: readonly DiskCallLine[], real: readonly DiskCallLine[], syscalls: readonly string[], steps: readonly string[], maxLines = 400): string[] {
  const sim = byMark(simulated, (l) => l.mark);
  const got = byMark(real, (l) => l.mark);
  const calls = byMark(syscalls, (line) => line.slice(0, line.indexOf(' | ')));
  const lines: string[] = [];
  for (const mark of [...new Set([...steps, ...calls.keys()])]) {
    const a = (sim.get(mark) ?? []).map((l) => l.text);
    const b = (got.get(mark) ?? []).map((l) => l.text);
    const raw = (calls.get(mark) ?? []).map((line) => line.slice(line.indexOf(' | ') + 3));
    if (a.length === 0 && b.length === 0 && raw.length === 0) continue;
    const same = a.length === b.length && a.every((t, i) => t === b[i]);
    lines.push(`${mark || '(before any step)'}${same ? '' : '   ≠'}`);
    lines.push(`    simulated: ${a.join('; ') || '(no change)'}`);
    if (!same) lines.push(`    real:      ${b.join('; ') || '(no change)'}`);
    for (const call of raw) lines.push(`      ${call}`);
  }
  return lines.length <= maxLines ? lines : [...lines.slice(0, maxLines), `… and ${lines.length - maxLines} more lines (durasim confirm <scenario> --calls prints them all)`];
}
