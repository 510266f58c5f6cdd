/**
 * Observed histories: durasim reads the journal's records off the durable image after every step
 * that changed it (and off what the next incarnation reads at a crash, and at the end), and
 * builds each key's sequence of states itself, so a journal may keep only its current state.
 *
 * Rules:
 * - An image's snapshot of a key contributes only when it differs from that image's previous
 *   snapshot of the key (an unrelated fsync re-reads the same record and adds nothing).
 * - A recorded history contributes the states past its common prefix with the key's previous
 *   snapshot (of either image); a current state contributes itself. Consecutive repeats fold.
 * - A record that existed and is gone contributes 'absent'.
 * - Receipts are watched beside the states: once a durable snapshot shows a key succeeded with a
 *   receipt, the first later snapshot (either image) without that receipt is noted (evidence-retained).
 * - A machine crash drops what was only ever visible (page cache) and never caught up with by a
 *   durable snapshot: the disk took it back, not the journal. What the crash kept of it anyway (a
 *   per-file or torn crash keeps some unsynced writes) is the same observation, written before the
 *   crash: the first durable snapshot after the crash restores it as first seen, not as new.
 * - With the journal's own state names, each observed state keeps the journal's word for it; a
 *   snapshot that shows the same states in other words (a sub-state of the last one, folded into
 *   it: stateNames.ts) adds its words to the last observed state's, each once.
 */
import type { ObservedHistories, ObservedState, ReceiptLoss, Records } from './evidence.js';
import { ABSENT } from './lifecycle.js';
type Image = ObservedState['image'];
type Snapshot = readonly string[] | null;

export class HistoryObserver {
  readonly observed: ObservedHistories = {};
  private readonly last: Record<Image, Map<string, Snapshot>> = { durable: new Map(), visible: new Map() };
  private readonly lastAny = new Map<string, Snapshot>();
  /** Per key, how many observed states a durable snapshot has caught up with (a machine crash cannot take those back). */
  private readonly durableUpTo = new Map<string, number>();
  /** Per key, what the last machine crash took back, until the first durable snapshot after it. */
  private takenBack = new Map<string, ObservedState[]>();
  /** Per key, the receipt a durable snapshot first showed it succeeded with. */
  private readonly held = new Map<string, { receipt: string; seq: number }>();
  /** Receipts a later snapshot no longer showed, the first per key. */
  readonly receiptLosses: ReceiptLoss[] = [];

  /** Feeds one snapshot of an image, read at trace position `seq`. */
  observe(records: Records, seq: number, image: Image): void {
    this.watchReceipts(records, seq, image);
    const keys = new Set([...Object.keys(records), ...this.last[image].keys(), ...this.lastAny.keys()]);
    for (const key of keys) {
      const now: Snapshot = records[key]?.history ?? null;
      const names = records[key]?.names;
      const before = this.last[image].get(key);
      if (before === undefined ? now === null : same(before, now) && this.sameNames(image, key, names)) continue;
      this.last[image].set(key, now);
      this.noteNames(image, key, now === null ? undefined : names);
      const previous = this.lastAny.get(key) ?? null;
      this.lastAny.set(key, now);
      if (now === null) {
        if (previous !== null) this.push(key, ABSENT, seq, image);
      } else {
        const common = previous === null ? 0 : commonPrefix(previous, now);
        for (let i = common; i < now.length; i++) {
          const state = now[i] as string;
          const name = names?.[i];
          // A state the crash took back and kept after all: the observation from before the crash.
          const kept = image === 'durable' ? this.takenBack.get(key) : undefined;
          if (kept?.[0]?.state === state) {
            const first = kept.shift() as ObservedState;
            this.push(key, state, first.seq, first.image, first.name ?? name);
          } else {
            this.takenBack.delete(key);
            this.push(key, state, seq, image, name);
          }
        }
        // The same states in other words (a sub-state of the last one): the words join its entry.
        if (common === now.length && names !== undefined) this.nameLast(key, now.at(-1), names.at(-1));
        // A durable snapshot that holds all the key showed before (or supersedes a current state) confirms it.
        const caughtUp = previous === null || common === previous.length || (now.length === 1 && previous.length === 1);
        if (image === 'durable' && !caughtUp) continue;
      }
      if (image === 'durable') this.durableUpTo.set(key, this.observed[key]?.length ?? 0);
    }
    if (image === 'durable') this.takenBack.clear();
  }

  /** A machine crash: states seen only on the visible image since the last durable snapshot are gone. */
  machineCrash(): void {
    this.takenBack.clear();
    for (const [key, states] of Object.entries(this.observed)) {
      const taken: ObservedState[] = [];
      while (states.length > (this.durableUpTo.get(key) ?? 0) && states.at(-1)?.image === 'visible') taken.unshift(states.pop() as ObservedState);
      if (taken.length > 0) this.takenBack.set(key, taken);
      if (states.length === 0) delete this.observed[key];
      const durable = this.last.durable.get(key);
      if (durable === undefined) this.lastAny.delete(key);
      else this.lastAny.set(key, durable);
    }
    this.last.visible.clear();
    this.lastNames.visible.clear();
  }

  private watchReceipts(records: Records, seq: number, image: Image): void {
    for (const [key, held] of this.held) {
      const record = records[key];
      const now = record?.kind === 'operation' ? record.receipt : undefined;
      if (now === held.receipt || this.receiptLosses.some((l) => l.key === key)) continue;
      this.receiptLosses.push({ key, receipt: held.receipt, heldSeq: held.seq, seq, image, ...(record === undefined ? {} : { now: now ?? null }) });
    }
    if (image !== 'durable') return;
    for (const [key, record] of Object.entries(records)) {
      if (record.kind === 'operation' && record.receipt !== undefined && record.history.includes('succeeded') && !this.held.has(key)) this.held.set(key, { receipt: record.receipt, seq });
    }
  }

  private push(key: string, state: string, seq: number, image: Image, name?: string): void {
    const states = (this.observed[key] ??= []);
    if (states.at(-1)?.state === state) {
      this.nameLast(key, state, name);
      return;
    }
    states.push(name === undefined ? { state, seq, image } : { state, seq, image, name });
  }

  /** The journal's words for the key's last observed state, when it is `state`: `name`'s words join it, each once. */
  private nameLast(key: string, state: string | undefined, name: string | undefined): void {
    const last = this.observed[key]?.at(-1);
    if (name === undefined || last === undefined || last.state !== state) return;
    if (last.name === undefined) {
      last.name = name;
      return;
    }
    const words = last.name.split('/');
    for (const word of name.split('/')) if (!words.includes(word)) words.push(word);
    last.name = words.join('/');
  }

  /** Per image and key, the journal's words in its last snapshot (with its own state names only). */
  private readonly lastNames: Record<Image, Map<string, readonly string[]>> = { durable: new Map(), visible: new Map() };

  private sameNames(image: Image, key: string, names: readonly string[] | undefined): boolean {
    const before = this.lastNames[image].get(key);
    return before === undefined ? names === undefined : names !== undefined && same(before, names);
  }

  private noteNames(image: Image, key: string, names: readonly string[] | undefined): void {
    if (names === undefined) this.lastNames[image].delete(key);
    else this.lastNames[image].set(key, names);
  }
}

function same(a: Snapshot, b: Snapshot): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
