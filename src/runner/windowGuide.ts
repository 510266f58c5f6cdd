/**
 * Coverage-guided draws: `check` steers part of its runs toward fault windows (faultWindows.ts) no
 * run has hit yet.
 *
 * - Runs are counted in epochs of `epochRuns` (a shard's own runs, in index order). The first epoch
 *   is drawn as always. In every later one, each odd run is aimed (while windows are left to aim
 *   at): it is an earlier run (its parent, drawn as always) with one more fault, placed at a step
 *   that run took, so that it strikes a window no run of the earlier epochs hit (the step's kind
 *   and owner are known from the parent's trace, and everything before the step replays the parent
 *   unchanged). The aimed run takes the place of the run drawn at its index: the budget is shared,
 *   which is why `check` aims only when asked (--guided; docs/faults.md has the measurements).
 * - Deterministic for any number of workers: what an epoch aims at depends only on the runs of the
 *   earlier epochs, merged in index order once they have all come back (explore waits for them
 *   before it hands out an aimed run), and which window a run aims at is a function of the seed
 *   and its index. Each window is aimed at once; a run that missed its window does not retry it.
 * - An aimed run keeps fast-check's shrink context: its value wraps the parent's, and shrinks as
 *   the parent shrinks, the added fault kept (simplifyScenario then tries without it).
 */
import fc from 'fast-check';
import type { Fault, Scenario, ScenarioStore } from '../../simulator/scenario/scenario.js';
import { DEFAULT_FAULT_KINDS, type ScenarioArbitraryOptions } from '../arbitraries.js';
import { ioShapes } from './stepKind.js';
import { faultWindowLabel, windowName, type OfferedPoint, type RunWindows } from './faultWindows.js';
import { windowFaultsAt } from './windowFaults.js';

/** Not aiming, every this many-th run offers its steps (a run that does costs about 3% more; one that only says what it hit, 1%). */
export const OFFER_SAMPLE = 10;

/** The runs of one epoch of the guide (see above). */
export const GUIDE_EPOCH_RUNS = 100;

/** What an aimed run adds to its parent, and the window it aims at. */
export interface Toward {
  /** The index of the parent run in the seed's sequence (a run drawn as always). */
  parent: number;
  fault: Fault;
  store?: ScenarioStore;
  schedule?: number[];
  window: string;
}

/** The parent scenario with the aimed fault (and the store or scheduling choices it needs). */
export function withToward(parent: Scenario, toward: Toward): Scenario {
  return {
    ...parent,
    ...(toward.store ? { store: toward.store } : {}),
    ...(toward.schedule && parent.schedule.length === 0 ? { schedule: [...toward.schedule] } : {}),
    faults: [...parent.faults, structuredClone(toward.fault)],
  };
}

/** The arbitrary of an aimed run: its value wraps the parent's, and shrinks as the parent does, with the aimed fault kept. */
export class TowardArbitrary extends fc.Arbitrary<Scenario> {
  constructor(
    private readonly base: fc.Arbitrary<Scenario>,
    private readonly parent: () => fc.Value<Scenario>,
    private readonly toward: Toward,
  ) {
    super();
  }
  private wrap(inner: fc.Value<Scenario>): fc.Value<Scenario> {
    return new fc.Value(withToward(inner.value_, this.toward), { inner });
  }
  generate(): fc.Value<Scenario> {
    return this.wrap(this.parent());
  }
  canShrinkWithoutContext(_value: unknown): _value is Scenario {
    return false;
  }
  shrink(_value: Scenario, context: unknown): fc.Stream<fc.Value<Scenario>> {
    const inner = (context as { inner?: fc.Value<Scenario> } | undefined)?.inner;
    if (inner === undefined) return fc.Stream.nil();
    return this.base.shrink(inner.value_, inner.context).map((v) => this.wrap(v));
  }
}

interface Candidate {
  window: string;
  toward: Toward;
}

export interface GuideSummary {
  /** Every window the runs hit, sorted. */
  windows: string[];
  /**
   * The windows within reach: those hit, and every one a fault more could strike at the steps the
   * runs took (each kind of step and owner where first taken: by every drawn run when aiming,
   * else by every OFFER_SAMPLE-th).
   */
  reachable: number;
  /** Runs aimed at a window, and how many of them hit it. */
  aimedRuns: number;
  aimedHits: number;
}

export class WindowGuide {
  private readonly epochRuns: number;
  private readonly pending = new Map<number, { windows: RunWindows; toward?: Toward }>();
  private readonly hit = new Set<string>();
  private readonly tried = new Set<string>();
  /** Per step kind and owner, the first two points offered (from different runs), lowest run first. */
  private readonly offered = new Map<string, { parent: number; at: OfferedPoint; usesStore: boolean }[]>();
  private candidates: Candidate[] = [];
  private settledUpTo = 0;
  private aimed = new Map<number, string>();
  private aimedHit = new Set<number>();

  constructor(
    private readonly options: {
      seed: number;
      arbitrary: ScenarioArbitraryOptions;
      /** The parent's scenario, drawn again in this thread (scenarioSource.scenarioAt). */
      parentScenario: (index: number) => Scenario;
      epochRuns?: number;
      /** With --shard i/n: n (the shard owns every n-th run). */
      stride?: number;
      /** true: aim (check --guided); otherwise the guide records the windows hit and aims at none. */
      aim?: boolean;
    },
  ) {
    this.epochRuns = options.epochRuns ?? GUIDE_EPOCH_RUNS;
  }

  /** A run's place among the runs of its shard (a shard owns every `stride`-th index): epochs and parity count those. */
  private position(index: number): number {
    return Math.floor(index / (this.options.stride ?? 1));
  }

  private epochStart(index: number): number {
    return Math.floor(this.position(index) / this.epochRuns) * this.epochRuns * (this.options.stride ?? 1);
  }

  /** Whether the guide aims runs at all (else it only records the windows hit). */
  get aiming(): boolean {
    return this.options.aim === true;
  }

  /** Whether run `index` is aimed, once its epoch is settled. */
  aims(index: number): boolean {
    const position = this.position(index);
    return this.options.aim === true && position >= this.epochRuns && position % 2 === 1;
  }

  /** The index every earlier run must have come back below before run `index` is handed out (undefined: none needed). */
  waitsFor(index: number): number | undefined {
    const start = this.epochStart(index);
    return this.aims(index) && start > this.settledUpTo ? start : undefined;
  }

  /** A run came back with the windows it hit (an aimed run: with what it aimed at). */
  record(index: number, windows: RunWindows, toward?: Toward): void {
    this.pending.set(index, toward ? { windows, toward } : { windows });
  }

  /**
   * Merges the runs below `frontier` — every run below it has come back, and none can still be
   * dropped by an earlier failure — so that what is kept per run stays bounded. Aiming, no further
   * than the last settled epoch: what the next epoch aims at must not see later runs.
   */
  absorb(frontier: number): void {
    this.mergeBelow(this.aiming ? Math.min(frontier, this.settledUpTo) : frontier);
  }

  /** Merges every run below `upTo` (all have come back), in index order, and lists the windows to aim at. */
  settle(upTo: number): void {
    this.mergeBelow(upTo);
    this.settledUpTo = Math.max(this.settledUpTo, upTo);
    this.candidates = this.listCandidates();
  }

  private mergeBelow(upTo: number): void {
    const merged = [...this.pending.keys()].filter((i) => i < upTo).sort((a, b) => a - b);
    for (const index of merged) {
      const { windows, toward } = this.pending.get(index) as { windows: RunWindows; toward?: Toward };
      this.pending.delete(index);
      this.merge(index, windows, toward);
    }
  }

  private merge(index: number, windows: RunWindows, toward: Toward | undefined): void {
    for (const w of windows.hit) this.hit.add(w);
    if (toward) {
      if (windows.hit.includes(toward.window)) this.aimedHit.add(index);
      return; // only runs drawn as always are parents: an aimed run is drawn again from its parent alone
    }
    for (const at of windows.offered) {
      const key = `${at.kind}/${at.owner}`;
      const list = this.offered.get(key) ?? [];
      if (list.length < 2) list.push({ parent: index, at, usesStore: windows.usesStore });
      this.offered.set(key, list);
    }
  }

  /** Every window one fault more could strike at the steps offered so far, less those `skip` says (hit, or aimed at already). */
  private listCandidates(skip: (window: string) => boolean = (w) => this.hit.has(w) || this.tried.has(w)): Candidate[] {
    const families = new Set(this.options.arbitrary.faults ?? DEFAULT_FAULT_KINDS);
    const features = this.options.arbitrary.features;
    const byWindow = new Map<string, Candidate>();
    const scenarios = new Map<number, Scenario>();
    const keys = [...this.offered.keys()].sort();
    for (const key of keys) {
      for (const { parent, at, usesStore } of this.offered.get(key) ?? []) {
        let base = scenarios.get(parent);
        if (base === undefined) {
          base = this.options.parentScenario(parent);
          scenarios.set(parent, base);
        }
        const { pid, incarnation, step } = at.point;
        const faults: { fault: Fault; store?: ScenarioStore; schedule?: number[] }[] = [];
        if (families.has('crash')) faults.push({ fault: { kind: 'crash', process: pid, incarnation, step, when: 'after', mode: 'keep-all' } });
        if (families.has('disk')) faults.push({ fault: { kind: 'crash', process: pid, incarnation, step, when: 'after', mode: 'lose-unsynced' } });
        if (families.has('io')) for (const shape of ioShapes(at.kind)) faults.push({ fault: { kind: 'io-error', process: pid, incarnation, step, ...shape } });
        for (const w of windowFaultsAt(at.point, { base, families, usesStore, ...(features ? { features } : {}) })) {
          faults.push({ fault: w.fault, ...(w.store ? { store: w.store } : {}), ...(w.schedule ? { schedule: w.schedule } : {}) });
        }
        for (const f of faults) {
          const window = windowName(faultWindowLabel(f.fault), at.kind, at.owner);
          if (skip(window) || byWindow.has(window)) continue;
          byWindow.set(window, { window, toward: { parent, ...f, window } });
        }
      }
    }
    return [...byWindow.values()].sort((a, b) => (a.window < b.window ? -1 : a.window > b.window ? 1 : 0));
  }

  /** What run `index` aims at (undefined: drawn as always). Called in index order, after `waitsFor` was met. */
  towardFor(index: number, pick: number): Toward | undefined {
    if (!this.aims(index) || this.candidates.length === 0) return undefined;
    const [chosen] = this.candidates.splice(pick % this.candidates.length, 1) as [Candidate];
    this.tried.add(chosen.window);
    this.aimed.set(index, chosen.window);
    return chosen.toward;
  }

  /** The windows of every run up to and including `upTo` (all that count), and how the aimed runs fared. */
  summary(upTo: number): GuideSummary {
    this.mergeBelow(upTo + 1);
    let aimedRuns = 0;
    let aimedHits = 0;
    for (const index of this.aimed.keys()) {
      if (index > upTo) continue;
      aimedRuns++;
      if (this.aimedHit.has(index)) aimedHits++;
    }
    const reachable = new Set([...this.listCandidates(() => false).map((c) => c.window), ...this.hit]);
    return { windows: [...this.hit].sort(), reachable: reachable.size, aimedRuns, aimedHits };
  }
}
