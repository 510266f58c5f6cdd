/**
 * A SQLite journal's steps at the grain both worlds share, for `durasim confirm`.
 *
 * Simulated, every call SQLite makes to its VFS (`sqlite.xOpen`, `xRead`, `xWrite`, `xSync`,
 * `xDelete`, `xAccess`, `xFileSize`, `xTruncate`) is a step of its process. In a real process the
 * native SQLite (better-sqlite3, node:sqlite) makes the matching system calls inside one JavaScript
 * call — `stmt.run()`, `db.exec()` — which no step of the real worker can stand between. So the two
 * worlds are compared at the grain they share: the steps outside SQLite, numbered per incarnation
 * as the real worker numbers them; what SQLite's calls changed on the disk belongs to the step
 * before them in both worlds (the real worker's system calls are stamped with its last step:
 * realDisk.ts), and is compared there. A scenario's fault that lands on a SQLite step, or an event
 * due in the middle of SQLite's calls, cannot be placed in a real process: confirm says so.
 */
import type { DiskCallLine } from '../../simulator/disk/diskCallLog.js';
import { isStepFault, type Fault, type Scenario, type StepFault } from '../../simulator/scenario/scenario.js';
import { ScenarioEvents, stepMentions } from '../../simulator/scenario/scenarioEvents.js';
import { markOf, type StepLine, type WorkerStep } from './workerSteps.js';

/** Whether a step is a SQLite VFS call of the simulation. */
export const isSqliteStep = (op: string): boolean => op.startsWith('sqlite.');

/** Whether a simulated run is a SQLite journal's: one of its worker steps is a SQLite VFS call. */
export const hasSqliteSteps = (steps: readonly WorkerStep[]): boolean => steps.some((s) => isSqliteStep(s.op));

/**
 * The simulated steps outside SQLite, numbered per incarnation as a real worker numbers its own;
 * and for every simulated step's mark the mark its disk changes are compared under: its own
 * renumbered mark, or for a SQLite step the last step outside SQLite before it ('' when none).
 */
export function outsideSqlite(steps: readonly WorkerStep[]): { steps: WorkerStep[]; marks: Map<string, string> } {
  const counts = new Map<string, number>();
  const last = new Map<string, string>();
  const marks = new Map<string, string>();
  const out: WorkerStep[] = [];
  for (const s of steps) {
    if (isSqliteStep(s.op)) {
      marks.set(markOf(s), last.get(s.worker) ?? '');
      continue;
    }
    const step = counts.get(s.worker) ?? 0;
    counts.set(s.worker, step + 1);
    const coarse = { ...s, step };
    out.push(coarse);
    marks.set(markOf(s), markOf(coarse));
    last.set(s.worker, markOf(coarse));
  }
  return { steps: out, marks };
}

/** A write line's byte count and offset (simulator/disk/diskCallLog.ts: "write <path> <n> bytes at <at> <preview>"). */
function extentOf(line: DiskCallLine): { bytes: number; at: number; preview: string } | undefined {
  if (line.op !== 'write') return undefined;
  const match = /^(\d+) bytes at (\d+) (.*)$/s.exec(line.text.slice(`write ${line.paths[0] ?? ''} `.length));
  return match ? { bytes: Number(match[1]), at: Number(match[2]), preview: match[3] as string } : undefined;
}

/**
 * The simulated disk changes under the marks of `outsideSqlite`, and writes that now follow one
 * another under one mark to one file merged, as the real side's are (SQLite's frame header and
 * page, two VFS writes, are one run of bytes there too).
 */
export function remarked(lines: readonly DiskCallLine[], marks: ReadonlyMap<string, string>): DiskCallLine[] {
  const out: DiskCallLine[] = [];
  for (const line of lines) {
    const mark = marks.get(line.mark) ?? line.mark;
    const last = out[out.length - 1];
    const [a, b] = [last && extentOf(last), extentOf(line)];
    if (last && a && b && last.mark === mark && last.paths[0] === line.paths[0] && a.at + a.bytes === b.at) {
      out[out.length - 1] = { ...last, text: `write ${line.paths[0] ?? ''} ${a.bytes + b.bytes} bytes at ${a.at} ${a.preview}` };
      continue;
    }
    out.push({ ...line, mark });
  }
  return out;
}


/** A worker's step line of the simulated trace, with its incarnation's numbers. */
interface SimStep {
  pid: number;
  incarnation: number;
  step: number;
  op: string;
  detail: string;
}

function simSteps(trace: readonly StepLine[]): SimStep[] {
  return trace
    .filter((l) => l.actor.startsWith('worker-') && l.step !== undefined && !l.op.endsWith(':result') && l.op !== 'timer')
    .map((l) => ({ pid: Number(l.actor.slice('worker-'.length)), incarnation: l.incarnation ?? 0, step: l.step as number, op: l.op, detail: l.detail }));
}

const named = (s: SimStep): string => `worker-${s.pid}#${s.incarnation} step ${s.step} ${s.op}`;

/**
 * The scenario as a real run of a SQLite journal meets it: each fault at a worker step moved to
 * that step's number outside SQLite (where it landed in the simulation, an anchored one found as
 * the simulation found it), each event due at a global step to the count of steps outside SQLite
 * before it. `why` when one cannot be placed: it landed on a SQLite step, or falls due among
 * SQLite's calls, or its anchor names a SQLite step.
 */
export function scenarioOutsideSqlite(scenario: Scenario, trace: readonly StepLine[]): { scenario: Scenario } | { why: string } {
  const steps = simSteps(trace);
  // Where each step fault landed in the simulation: the same lookup the simulation made, step by step.
  const events = new ScenarioEvents(scenario.faults);
  const landed = new Map<Fault, SimStep>();
  for (const s of steps) {
    const at = events.faultsAt(s.pid, s.incarnation, s.step, s.op, s.detail);
    for (const fault of [at.before, at.after, at.io, at.pause]) if (fault !== undefined && !landed.has(fault)) landed.set(fault, s);
  }
  const coarse = new Map<SimStep, number>();
  const counts = new Map<string, number>();
  for (const s of steps) {
    if (isSqliteStep(s.op)) continue;
    const key = `${s.pid}/${s.incarnation}`;
    const n = counts.get(key) ?? 0;
    coarse.set(s, n);
    counts.set(key, n + 1);
  }
  const sqliteMentions = (anchor: string): SimStep | undefined => steps.find((s) => isSqliteStep(s.op) && stepMentions(s.op, s.detail, anchor));
  const faults: Fault[] = [];
  for (const fault of scenario.faults) {
    if (isStepFault(fault)) {
      const where = landed.get(fault);
      if (where === undefined) {
        // It never struck in the simulation: it strikes nowhere in the real run either.
        const { at: _at, ...rest } = fault as StepFault & { at?: unknown };
        faults.push({ ...rest, step: -1 } as Fault);
        continue;
      }
      const n = coarse.get(where);
      if (n === undefined) return { why: `the ${fault.kind} fault lands on ${named(where)}, a call native SQLite makes inside one JavaScript call, where no real process can be stopped (docs/sqlite.md)` };
      const { at: _at, ...rest } = fault as StepFault & { at?: unknown };
      faults.push({ ...rest, step: n } as Fault);
      continue;
    }
    if ('atStep' in fault && fault.atStep !== undefined) {
      const due = steps[fault.atStep];
      // Fired before the step at its number is granted: a real worker asks for no SQLite step.
      if (due !== undefined && isSqliteStep(due.op)) {
        return { why: `the ${fault.kind} event falls due at ${named(due)}, among the calls native SQLite makes inside one JavaScript call, where no real event can be placed (docs/sqlite.md)` };
      }
      const before = steps.slice(0, fault.atStep).filter((s) => !isSqliteStep(s.op)).length;
      faults.push({ ...fault, atStep: before } as Fault);
      continue;
    }
    // Anchored events count the steps that mention their anchor (a user edit after an access counts fs steps alone).
    const anchor = 'at' in fault && fault.at !== undefined ? fault.at.mentions : undefined;
    const sqlite = anchor === undefined ? undefined : sqliteMentions(anchor);
    if (sqlite !== undefined) return { why: `the ${fault.kind} event is anchored on "${anchor}", which ${named(sqlite)} mentions: native SQLite's calls are no steps of a real process (docs/sqlite.md)` };
    faults.push(fault);
  }
  return { scenario: { ...scenario, faults } };
}
