/**
 * The simulated disk calls beside the real ones, worker step by worker step (both logged by the
 * disk model, simulator/disk/diskCallLog.ts: the simulation's from its model of Node, the real
 * run's from strace's log of Node): the first step whose changes differ is where durasim's model of
 * Node is wrong, and the table shows both, with the system calls behind the real side.
 *
 * A name the journal brings into being (a file or folder created, a rename or link onto a name
 * that was not there) is compared by its role, not by its text: which step brought it in, in which
 * folder, as that step's how-manieth new name there. A temp name drawn from crypto.randomUUID(), a
 * pid or a thread id differs from world to world without Node doing anything otherwise; what
 * kind of change a step made, in which folder, to how many names, still must match.
 */
import { posix } from 'node:path';
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

/**
 * Each line's key with the names the journal brought into being put as their roles (in log order,
 * one world at a time): "create ./<new name 1 of worker-0#0 step 13 fs.open>". Names that were
 * there before (the scenario's files, fixed names used as they are) stay as they are.
 */
export function roleKeys(lines: readonly DiskCallLine[]): string[] {
  const roles = new Map<string, string>();
  const made = new Map<string, number>();
  const nameOf = (path: string): string => {
    const folder = path.endsWith('/');
    const bare = folder ? path.slice(0, -1) : path;
    const role = roles.get(bare) ?? (bare.includes('/') ? `${nameOf(posix.dirname(bare))}/${posix.basename(bare)}` : bare);
    return folder ? `${role}/` : role;
  };
  const bringIn = (path: string, mark: string): void => {
    const folder = nameOf(posix.dirname(path));
    const count = `${mark}\0${folder}`;
    const n = (made.get(count) ?? 0) + 1;
    made.set(count, n);
    roles.set(path, `${folder}/<new name ${n} of ${mark || 'no step'}>`);
  };
  const live = new Set<string>();
  return lines.map((line) => {
    const [path = '', to] = line.paths;
    // What the call names as it was (a rename's source, a removed name); what it brings in, by its new role.
    const before = nameOf(path);
    if (line.op === 'create' || line.op === 'mkdir') {
      bringIn(path, line.mark);
      live.add(path);
      return `${line.op} ${nameOf(path)}${line.tail}`;
    }
    if ((line.op === 'rename' || line.op === 'link') && to !== undefined) {
      // Onto a name no call of this log made or left there: brought in (onto a name already there, the name stays).
      if (!live.has(to)) bringIn(to, line.mark);
      live.add(to);
      if (line.op === 'rename') live.delete(path);
      return `${line.op} ${before} → ${nameOf(to)}${line.tail}`;
    }
    if (line.op === 'unlink' || line.op === 'rmdir') live.delete(path);
    return `${line.op} ${before}${line.tail}`;
  });
}

/** The first of `steps` (the worker steps both worlds took alike, in order) whose disk changes differ, names brought in compared by their roles. */
export function firstCallDivergence(simulated: readonly DiskCallLine[], real: readonly DiskCallLine[], steps: readonly string[]): CallDivergence | undefined {
  const keyed = (lines: readonly DiskCallLine[]): Map<string, { line: DiskCallLine; key: string }[]> => {
    const keys = roleKeys(lines);
    return byMark(lines.map((line, i) => ({ line, key: keys[i] as string })), (l) => l.line.mark);
  };
  const sim = keyed(simulated);
  const got = keyed(real);
  for (const mark of steps) {
    const a = sim.get(mark) ?? [];
    const b = got.get(mark) ?? [];
    if (a.length !== b.length || a.some((l, i) => l.key !== b[i]?.key)) return { mark, simulated: a.map((l) => l.line.text), real: b.map((l) => l.line.text) };
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
