/**
 * ScenarioEvents: a scenario's faults as the run meets them. Crashes and I/O errors are looked up by
 * (worker, incarnation, step, when), or for an anchored crash by the step's rank among that
 * incarnation's steps that mention the anchor; the first fault listed for a point wins. The timed faults —
 * user edits, duplicate deliveries, service restarts — come in the order they come due. atStep faults come due at a global step; afterAccess user
 * edits come due after the workers' n-th step on their path (counted from the trace details).
 * Whatever never came due is handed out, in order, once every worker has finished.
 */
import type { CrashFault, Fault, IoErrorFault, PauseFault, UserEditFault } from './scenario.js';

/** What happens at one worker step: a crash before or after it, an I/O error in it, a pause before it takes effect. */
export interface StepFaults {
  before?: CrashFault;
  after?: CrashFault;
  io?: IoErrorFault;
  pause?: PauseFault;
}

type StepFault = CrashFault | IoErrorFault | PauseFault;
const slotOf = (fault: StepFault): 'before' | 'after' | 'io' | 'pause' => (fault.kind === 'crash' ? fault.when : fault.kind === 'pause' ? 'pause' : 'io');

export class ScenarioEvents {
  private readonly timed: Fault[];
  private readonly anchored: UserEditFault[];
  private readonly accesses = new Map<string, number>();
  /** Per worker incarnation ("pid/incarnation"), per step: its faults, the first listed for each slot. */
  private readonly stepFaults = new Map<string, Map<number, StepFaults>>();
  private readonly anchoredCrashes: StepFault[];
  private readonly anchors: string[];
  /** Per worker incarnation ("pid/incarnation"): its anchored faults, and how many of its steps mentioned each anchor so far. */
  private readonly ranks = new Map<string, { faults: StepFault[]; counts: number[] }>();
  /** The incarnation looked up last (steps come in runs of one incarnation): its key and tables. */
  private lastPid = -1;
  private lastIncarnation = -1;
  private lastSteps: Map<number, StepFaults> | undefined;
  private lastRanks: { faults: StepFault[]; counts: number[] } | undefined;

  constructor(faults: readonly Fault[]) {
    for (const fault of faults) {
      if ((fault.kind !== 'crash' && fault.kind !== 'io-error' && fault.kind !== 'pause') || fault.step === undefined) continue;
      const key = `${fault.process}/${fault.incarnation}`;
      const steps = this.stepFaults.get(key) ?? new Map<number, StepFaults>();
      const slots = steps.get(fault.step) ?? {};
      if (slots[slotOf(fault)] === undefined) Object.assign(slots, { [slotOf(fault)]: fault });
      steps.set(fault.step, slots);
      this.stepFaults.set(key, steps);
    }
    this.anchoredCrashes = faults.filter((f): f is StepFault => (f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'pause') && f.at !== undefined);
    this.anchors = [...new Set(this.anchoredCrashes.map((f) => f.at?.mentions ?? ''))];
    this.anchored = faults.filter((f): f is UserEditFault => f.kind === 'user-edit' && f.afterAccess !== undefined);
    this.timed = faults
      .filter((f) => (f.kind === 'user-edit' && f.atStep !== undefined) || f.kind === 'duplicate-delivery' || f.kind === 'concurrent-call' || f.kind === 'service-restart' || f.kind === 'store-restart' || f.kind === 'store-edit' || f.kind === 'takeover' || f.kind === 'cancel' || f.kind === 'input-change')
      .map((f, i) => ({ f, i }))
      .sort((a, b) => stepOf(a.f) - stepOf(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }

  /**
   * The crashes due before and after a worker's step, and an I/O error in it: by its number, or
   * (anchored) by its rank among the incarnation's steps that mention the anchor. Call once per
   * step, in order. The answer is read, never changed, by the caller.
   */
  faultsAt(pid: number, incarnation: number, step: number, op: string, detail: string): StepFaults {
    if (this.stepFaults.size === 0 && this.anchors.length === 0) return NO_FAULT;
    if (pid !== this.lastPid || incarnation !== this.lastIncarnation) this.lookUp(pid, incarnation);
    const numbered = this.lastSteps?.get(step) ?? NO_FAULT;
    if (this.anchors.length === 0) return numbered;
    // Looked at per step: plain loops, no closure or iterator allocated for a step no anchored fault strikes.
    let found = numbered;
    const ranks = this.lastRanks as { faults: StepFault[]; counts: number[] };
    for (const fault of ranks.faults) {
      const at = fault.at as NonNullable<StepFault['at']>;
      const anchor = this.anchors.indexOf(at.mentions);
      if (ranks.counts[anchor] !== at.occurrence || !stepMentions(op, detail, at.mentions)) continue;
      if (found === numbered) found = { ...numbered };
      if (fault.kind === 'crash') found[fault.when] ??= fault;
      else if (fault.kind === 'pause') found.pause ??= fault;
      else found.io ??= fault;
    }
    // Ranks advance once per step and anchor, after every fault for this step was looked at.
    for (let i = 0; i < this.anchors.length; i++) if (stepMentions(op, detail, this.anchors[i] as string)) ranks.counts[i] = (ranks.counts[i] ?? 0) + 1;
    return found;
  }

  private lookUp(pid: number, incarnation: number): void {
    const key = `${pid}/${incarnation}`;
    this.lastPid = pid;
    this.lastIncarnation = incarnation;
    this.lastSteps = this.stepFaults.get(key);
    let ranks = this.ranks.get(key);
    if (ranks === undefined) {
      ranks = { faults: this.anchoredCrashes.filter((f) => f.process === pid && f.incarnation === incarnation), counts: this.anchors.map(() => 0) };
      this.ranks.set(key, ranks);
    }
    this.lastRanks = ranks;
  }

  /** Counts a worker step on each path it names (the anchors of afterAccess user edits). */
  countAccess(op: string, detail: string): void {
    if (this.anchored.length === 0 || (!op.startsWith('fs.') && !op.startsWith('fh.'))) return;
    const [first, arrow, second] = detail.split(' ', 3); // a write's detail goes on with its data
    for (const path of arrow === '→' && second !== undefined ? [first, second] : [first]) {
      if (path !== undefined) this.accesses.set(path, (this.accesses.get(path) ?? 0) + 1);
    }
  }

  /** The next fault due before global step `globalStep`, if any. */
  nextDue(globalStep: number): Fault | undefined {
    const anchored = this.anchored.findIndex((edit) => (this.accesses.get(edit.path) ?? 0) > (edit.afterAccess ?? 0));
    if (anchored !== -1) return this.anchored.splice(anchored, 1)[0];
    const first = this.timed[0];
    return first !== undefined && stepOf(first) <= globalStep ? this.timed.shift() : undefined;
  }

  /** The next fault that never came due, once nothing else is left to happen. */
  nextLeftOver(): Fault | undefined {
    return this.timed.shift() ?? this.anchored.shift();
  }
}

function stepOf(fault: Fault): number {
  return 'atStep' in fault && fault.atStep !== undefined ? fault.atStep : 0;
}

/**
 * Whether a step's trace line (`${op} ${detail}`) names `anchor`, without building the line: a
 * whole-word match lies in the op or in the detail, unless the anchor holds the space between them.
 */
function stepMentions(op: string, detail: string, anchor: string): boolean {
  if (anchor.includes(' ')) return mentions(`${op} ${detail}`, anchor);
  return mentions(detail, anchor) || mentions(op, anchor);
}

/** Whether a trace line names `anchor` as a whole word: a key or a path, not a longer name that starts with it. */
export function mentions(line: string, anchor: string): boolean {
  for (let at = line.indexOf(anchor); at !== -1; at = line.indexOf(anchor, at + 1)) {
    const before = line[at - 1];
    const after = line[at + anchor.length];
    if ((before === undefined || !WORD.test(before)) && (after === undefined || !WORD.test(after))) return true;
  }
  return false;
}

const WORD = /[A-Za-z0-9._-]/;
const NO_FAULT: StepFaults = Object.freeze({});
