/**
 * ScenarioEvents: a scenario's faults as the run meets them. Crashes, I/O errors and pauses are
 * looked up by (worker, incarnation, step, when), or for an anchored one by the step's rank among
 * that incarnation's steps that mention the anchor (a pause anchored `after` its step freezes the
 * incarnation at its next step); the first fault listed for a point wins. The timed faults — user
 * edits, duplicate deliveries, concurrent calls, restarts, store edits, takeovers, cancels, input
 * changes — come in the order they come due: an atStep fault at a global step, an afterAccess user
 * edit after the workers' n-th step on its path (counted from the trace details), an anchored one
 * just before (`dueBefore`, asked as a step is about to be granted) or just after the n-th worker
 * step, of any worker, that mentions its anchor. Whatever never came due is handed out, in order,
 * once every worker has finished.
 */
import { storeStepDetail, type StoreCallFaultKind, type StoreRequest } from '../store/store.js';
import type { CrashFault, EventAnchor, Fault, IoErrorFault, PauseFault, StepFault, UserEditFault } from './scenario.js';

/** What happens at one worker step: a crash before or after it, an I/O error in it, a pause before it takes effect. */
export interface StepFaults {
  before?: CrashFault;
  after?: CrashFault;
  io?: IoErrorFault;
  pause?: PauseFault;
}

const slotOf = (fault: StepFault): 'before' | 'after' | 'io' | 'pause' => (fault.kind === 'crash' ? fault.when : fault.kind === 'pause' ? 'pause' : 'io');

/** A fault that is no worker's own step (it fires between steps), placed by an anchor. */
type AnchoredEvent = Fault & { at: EventAnchor };
const isTimed = (f: Fault): boolean => f.kind === 'duplicate-delivery' || f.kind === 'concurrent-call' || f.kind === 'service-restart' || f.kind === 'store-restart' || f.kind === 'store-edit' || f.kind === 'takeover' || f.kind === 'cancel' || f.kind === 'input-change';

export class ScenarioEvents {
  private readonly timed: Fault[];
  private readonly anchored: UserEditFault[];
  private readonly accesses = new Map<string, number>();
  /** Per worker incarnation ("pid/incarnation"), per step: its faults, the first listed for each slot. */
  private readonly stepFaults = new Map<string, Map<number, StepFaults>>();
  private readonly anchoredCrashes: StepFault[];
  private readonly anchors: string[];
  /** Per worker incarnation ("pid/incarnation"): its anchored faults, how many of its steps mentioned each anchor so far, and a pause due at its next step. */
  private readonly ranks = new Map<string, { faults: StepFault[]; counts: number[]; pauseNext?: PauseFault }>();
  /** The incarnation looked up last (steps come in runs of one incarnation): its key and tables. */
  private lastPid = -1;
  private lastIncarnation = -1;
  private lastSteps: Map<number, StepFaults> | undefined;
  private lastRanks: { faults: StepFault[]; counts: number[]; pauseNext?: PauseFault } | undefined;
  /** Anchored timed faults not yet fired, in scenario order; and how many worker steps (any worker's) mentioned each of their anchors. */
  private readonly events: AnchoredEvent[];
  private readonly eventCounts = new Map<string, number>();

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
    this.events = faults.filter((f): f is AnchoredEvent => isTimed(f) && 'at' in f && f.at !== undefined);
    for (const event of this.events) this.eventCounts.set(event.at.mentions, 0);
    this.timed = faults
      .filter((f) => (f.kind === 'user-edit' && f.atStep !== undefined) || (isTimed(f) && 'atStep' in f && f.atStep !== undefined))
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
    const ranks = this.lastRanks as { faults: StepFault[]; counts: number[]; pauseNext?: PauseFault };
    // A pause anchored after the incarnation's previous step freezes it at this one.
    if (ranks.pauseNext !== undefined) {
      found = { ...numbered };
      found.pause ??= ranks.pauseNext;
      delete ranks.pauseNext;
    }
    for (const fault of ranks.faults) {
      const at = fault.at as NonNullable<StepFault['at']>;
      const anchor = this.anchors.indexOf(at.mentions);
      if (ranks.counts[anchor] !== at.occurrence || !stepMentions(op, detail, at.mentions)) continue;
      if (fault.kind === 'pause' && (at as EventAnchor).when === 'after') {
        ranks.pauseNext ??= fault;
        continue;
      }
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

  /** Counts a worker step, as it is granted, on each anchor of an anchored timed fault it mentions. */
  countStep(op: string, detail: string): void {
    for (const [mentions, n] of this.eventCounts) if (stepMentions(op, detail, mentions)) this.eventCounts.set(mentions, n + 1);
  }

  /** Counts a worker step on each path it names (the anchors of afterAccess user edits). */
  countAccess(op: string, detail: string): void {
    if (this.anchored.length === 0 || (!op.startsWith('fs.') && !op.startsWith('fh.'))) return;
    const [first, arrow, second] = detail.split(' ', 3); // a write's detail goes on with its data
    for (const path of arrow === '→' && second !== undefined ? [first, second] : [first]) {
      if (path !== undefined) this.accesses.set(path, (this.accesses.get(path) ?? 0) + 1);
    }
  }

  /** Whether any anchored timed fault waits for a step: the scheduler then asks `dueBefore` before each step it grants. */
  get anchorsPending(): boolean {
    return this.events.length > 0;
  }

  /**
   * An anchored timed fault due just before a worker step about to be granted (`op`, `detail`): one
   * placed `before` the occurrence-th step that mentions its anchor, when this step is it. Taken out
   * once handed; the caller fires it and asks again.
   */
  dueBefore(op: string, detail: string): Fault | undefined {
    const i = this.events.findIndex((e) => e.at.when !== 'after' && this.eventCounts.get(e.at.mentions) === e.at.occurrence && stepMentions(op, detail, e.at.mentions));
    return i === -1 ? undefined : this.events.splice(i, 1)[0];
  }

  /** The next fault due before global step `globalStep`, if any (an anchored one whose step has been granted, placed after it — or before it, when that step was a synchronous call no event could precede). */
  nextDue(globalStep: number): Fault | undefined {
    const anchored = this.anchored.findIndex((edit) => (this.accesses.get(edit.path) ?? 0) > (edit.afterAccess ?? 0));
    if (anchored !== -1) return this.anchored.splice(anchored, 1)[0];
    if (this.events.length > 0) {
      const passed = this.events.findIndex((e) => (this.eventCounts.get(e.at.mentions) ?? 0) > e.at.occurrence);
      if (passed !== -1) return this.events.splice(passed, 1)[0];
    }
    const first = this.timed[0];
    return first !== undefined && stepOf(first) <= globalStep ? this.timed.shift() : undefined;
  }

  /** The next fault that never came due, once nothing else is left to happen. */
  nextLeftOver(): Fault | undefined {
    return this.timed.shift() ?? this.anchored.shift() ?? this.events.shift();
  }
}

function stepOf(fault: Fault): number {
  return 'atStep' in fault && fault.atStep !== undefined ? fault.atStep : 0;
}

/**
 * The store-call faults of a scenario, as the store meets its calls: by the call's index (0-based,
 * across workers), or anchored to its n-th call whose step line (`store.<op> <key, prefix or
 * lease>`) mentions the anchor. For a call numbered twice the last listed wins (as formats 1 and 2
 * always had it); a numbered fault outranks an anchored one, and among anchored ones the first listed wins.
 */
export function storeCallFaults(faults: readonly Fault[]): (index: number, request: StoreRequest) => StoreCallFaultKind | undefined {
  const calls = faults.flatMap((f) => (f.kind === 'store-call' ? [f] : []));
  const numbered = new Map<number, StoreCallFaultKind>();
  for (const f of calls) if (f.call !== undefined) numbered.set(f.call, f.fault);
  const anchored = calls.filter((f) => f.at !== undefined);
  if (anchored.length === 0) return (index) => numbered.get(index);
  const counts = new Map<string, number>(anchored.map((f) => [f.at?.mentions ?? '', 0]));
  return (index, request) => {
    const op = `store.${request.op}`;
    const detail = storeStepDetail(request);
    let fault = numbered.get(index);
    for (const f of anchored) if (fault === undefined && f.at !== undefined && counts.get(f.at.mentions) === f.at.occurrence && stepMentions(op, detail, f.at.mentions)) fault = f.fault;
    for (const [mentions, n] of counts) if (stepMentions(op, detail, mentions)) counts.set(mentions, n + 1);
    return fault;
  };
}

/**
 * Whether a step's trace line (`${op} ${detail}`) names `anchor`, without building the line: a
 * whole-word match lies in the op or in the detail, unless the anchor holds the space between them.
 */
export function stepMentions(op: string, detail: string, anchor: string): boolean {
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
