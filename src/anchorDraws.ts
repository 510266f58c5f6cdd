/**
 * Where the generated faults that are no worker's own step land (issue 52): anchored, as crashes
 * are, to the n-th step that names an operation's key — or a step's kind (`POST`, `fs.stat`,
 * `clock.sleep`, `store.renew`) — just before or just after it, so a draw lands in the windows
 * between a journal's looks, waits and sends, and shrinking keeps it there while it drops the
 * operations and faults around it. A pause anchored to its worker's work may freeze it just
 * after the step (a lease renewed, a file looked at), before the send that step gates; a store
 * call's fault lands on the n-th call of a kind (the third renewal). One placement in four stays
 * a global step (or a call's number), as before. A second run of the task (a concurrent call, a
 * duplicate worker) is anchored only as the second of a pair: its window is mostly the first run's
 * startup, which names no key (SECOND_RUNS).
 *
 * Two faults in one window: half the anchored placements follow the run's first anchored fault —
 * the same key, file or step kind it names, a few of its mentions later — so a pair whose second
 * fault touches what the first touched is drawn with priority (a crash on post-b's append, then a
 * cancel before post-b's POST; a 503 on post-a, then a pause after its next look).
 *
 * These draws come last in the generator's record and only when such a fault is in play, so every
 * earlier draw of a seed stays what it was.
 */
import fc from 'fast-check';
import type { EventAnchor, Fault, FaultAnchor } from '../simulator/scenario/scenario.js';

/** Step kinds a placement may name instead of a key: what every journal's sends, looks, waits and renewals are. */
export const STEP_KIND_ANCHORS = ['POST', 'GET', 'fs.stat', 'clock.sleep', 'timer', 'store.renew', 'fh.sync'] as const;
/** Store call kinds a store fault may name. */
export const STORE_CALL_ANCHORS = ['store.renew', 'store.put', 'store.get', 'store.list', 'store.acquire'] as const;

/**
 * The faults that start a second run of the task: a concurrent call of run() in the running process,
 * a duplicate worker. Their window is mostly the first run's startup (its lock, its claim, its log's
 * read), where no step names a key: they are anchored only as the second of a pair.
 */
const SECOND_RUNS: ReadonlySet<string> = new Set(['concurrent-call', 'duplicate-delivery']);

/** The timed fault kinds in the order their placements are drawn (one slot each). */
const TIMED_SLOTS = ['duplicate-delivery', 'concurrent-call', 'service-restart', 'store-restart', 'takeover', 'store-edit', 'cancel', 'input-change'] as const;

const mostlySmall = (small: number, max: number): fc.Arbitrary<number> => fc.oneof({ arbitrary: fc.nat({ max: small }), weight: 3 }, { arbitrary: fc.nat({ max }), weight: 1 });

type Subject = { operation: number } | { kind: string };
interface Slot {
  subject: Subject;
  occurrence: number;
  when: 'before' | 'after';
  /** Follow the run's first anchored fault: its subject, `delta` mentions after it. */
  follow: boolean;
  delta: number;
}

export interface AnchorDraws {
  timed: (Slot | undefined)[];
  pauses: (Slot | undefined)[];
  storeCalls: ({ kind: string; occurrence: number } | undefined)[];
}

/** The placements' draws, for a workload of `operations` operations. Each shrinks toward anchored (its first choice), then toward the key of the first operation, its first mention, before it. */
export function anchorDrawsArbitrary(operations: number): fc.Arbitrary<AnchorDraws> {
  const slot: fc.Arbitrary<Slot | undefined> = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        subject: fc.oneof({ weight: 3, arbitrary: fc.record({ operation: fc.nat({ max: Math.max(0, operations - 1) }) }) }, { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom(...STEP_KIND_ANCHORS) }) }) as fc.Arbitrary<Subject>,
        occurrence: mostlySmall(3, 10),
        when: fc.constantFrom('before' as const, 'after' as const),
        follow: fc.boolean(),
        delta: fc.integer({ min: 1, max: 6 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const storeSlot = fc.oneof({ weight: 3, arbitrary: fc.record({ kind: fc.constantFrom(...STORE_CALL_ANCHORS), occurrence: mostlySmall(4, 12) }) }, { weight: 1, arbitrary: fc.constant(undefined) });
  return fc.record({
    timed: fc.array(slot, { minLength: TIMED_SLOTS.length, maxLength: TIMED_SLOTS.length }),
    pauses: fc.array(slot, { minLength: 2, maxLength: 2 }),
    storeCalls: fc.array(storeSlot, { minLength: 3, maxLength: 3 }),
  });
}

/**
 * The faults with their placements drawn: each timed fault, pause and store call whose slot is
 * drawn anchored (the k-th of its kind takes its kind's slot; a second of one kind keeps its
 * number). `subjectOf(i)`: the name an anchor on operation i mentions (its key, as the run has it).
 */
export function placeFaults(faults: readonly Fault[], draws: AnchorDraws, subjectOf: (operation: number) => string): Fault[] {
  const first = faults.find((f): f is Fault & { at: FaultAnchor } => (f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'response') && f.at !== undefined)?.at;
  const anchor = (slot: Slot): EventAnchor => {
    if (slot.follow && first !== undefined) return { mentions: first.mentions, occurrence: first.occurrence + slot.delta, ...(slot.when === 'after' ? { when: 'after' as const } : {}) };
    const mentions = 'operation' in slot.subject ? subjectOf(slot.subject.operation) : slot.subject.kind;
    return { mentions, occurrence: slot.occurrence, ...(slot.when === 'after' ? { when: 'after' as const } : {}) };
  };
  const seen = new Map<string, number>();
  let pauses = 0;
  let storeCalls = 0;
  return faults.map((fault) => {
    const nth = seen.get(fault.kind) ?? 0;
    seen.set(fault.kind, nth + 1);
    const timed = (TIMED_SLOTS as readonly string[]).indexOf(fault.kind);
    if (timed !== -1 && nth === 0 && 'atStep' in fault && fault.atStep !== undefined) {
      const slot = draws.timed[timed];
      if (slot === undefined) return fault;
      // A second run of the task (a concurrent call, a duplicate worker) races the first's startup, before any step names
      // one of the task's names: no anchor but a pair's reaches it, so unpaired it keeps its number (mostly small).
      if (SECOND_RUNS.has(fault.kind) && !(slot.follow && first !== undefined)) return fault;
      const { atStep: _, ...rest } = fault;
      return { ...rest, at: anchor(slot) } as Fault;
    }
    if (fault.kind === 'pause') {
      const slot = draws.pauses[pauses++];
      if (slot === undefined) return fault;
      // Named by a step's kind (the n-th renewal, look or send of its worker), or its own anchor kept; either way it may
      // freeze its worker just after that step, before the next (the send after a look).
      const own = fault.at;
      if ('kind' in slot.subject) {
        const { step: _, ...rest } = fault;
        return { ...rest, at: { mentions: slot.subject.kind, occurrence: slot.occurrence, ...(slot.when === 'after' ? { when: 'after' as const } : {}) } } as Fault;
      }
      return own === undefined || slot.when !== 'after' ? fault : { ...fault, at: { ...own, when: 'after' } };
    }
    if (fault.kind === 'store-call' && fault.call !== undefined) {
      const slot = draws.storeCalls[storeCalls++];
      if (slot === undefined) return fault;
      return { kind: 'store-call', at: { mentions: slot.kind, occurrence: slot.occurrence }, fault: fault.fault };
    }
    return fault;
  });
}
