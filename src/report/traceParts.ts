/**
 * Which trace entries a report shows. A trace of up to REPORT_ENTRIES_MAX entries is shown whole. A
 * longer one (a journal retrying in a loop, thousands of steps) keeps the entries its violations
 * stand on whatever the budget (`pinned`: pinnedEntries.ts — the fault that set each off, the steps
 * that touched its key, the locks and the lease it depends on), and the reader's landmarks — its
 * first and last entries, every crash, scenario fault, user save and escape, and the first and last
 * step of every invariant broken on every key, each with a few entries of context — and says where
 * entries were left out, so that report.md and timeline.html stay within their size budget. The
 * whole trace is always in counterexample.json's replay.
 */
import type { Violation } from '../../model/violation.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { isFault } from './timelineRows.js';

/** The most entries a report shows of one run. */
export const REPORT_ENTRIES_MAX = 600;
/** Entries kept at the start and at the end of a long trace. */
const EDGE_ENTRIES = 120;
/** Entries kept on each side of a landmark. */
const CONTEXT_ENTRIES = 6;
/** Entries kept on each side of a pinned entry, while the budget lasts. */
const PINNED_CONTEXT = 2;

export type TracePart = { kind: 'entries'; entries: TraceEntry[] } | { kind: 'gap'; from: number; to: number };

/** The trace positions a reader must see: crashes, faults, saves, escapes, and each invariant's first and last step per key. */
function landmarks(trace: readonly TraceEntry[], violations: readonly Violation[]): number[] {
  const marks = new Set<number>();
  for (const entry of trace) if (entry.op === 'crash' || entry.op === 'escape' || entry.actor === 'user' || isFault(entry)) marks.add(entry.seq);
  const steps = new Map<string, number[]>();
  for (const v of violations) steps.set(`${v.code}\u0000${v.key}`, [...(steps.get(`${v.code}\u0000${v.key}`) ?? []), v.step]);
  for (const seen of steps.values()) marks.add(Math.min(...seen)).add(Math.max(...seen));
  return [...marks].sort((a, b) => a - b);
}

/** The trace as a report shows it: runs of entries, and the gaps between them. */
export function traceParts(trace: readonly TraceEntry[], violations: readonly Violation[], max = REPORT_ENTRIES_MAX, pinned: ReadonlySet<number> = new Set()): TracePart[] {
  if (trace.length <= max) return [{ kind: 'entries', entries: [...trace] }];
  const kept = new Set<number>();
  const keep = (from: number, to: number): void => {
    for (let i = Math.max(0, from); i <= Math.min(trace.length - 1, to); i++) kept.add(i);
  };
  keep(0, EDGE_ENTRIES - 1);
  keep(trace.length - EDGE_ENTRIES, trace.length - 1);
  // What the violations stand on, whatever the budget.
  for (const seq of pinned) keep(seq, seq);
  // Landmarks in order, each with its context, while the budget lasts (the earliest are where a story starts).
  for (const seq of landmarks(trace, violations)) {
    if (kept.size + 2 * CONTEXT_ENTRIES + 1 > max) break;
    keep(seq - CONTEXT_ENTRIES, seq + CONTEXT_ENTRIES);
  }
  for (const seq of [...pinned].sort((a, b) => a - b)) {
    if (kept.size + 2 * PINNED_CONTEXT > max) break;
    keep(seq - PINNED_CONTEXT, seq + PINNED_CONTEXT);
  }
  const parts: TracePart[] = [];
  for (let i = 0; i < trace.length; ) {
    if (kept.has(i)) {
      const entries: TraceEntry[] = [];
      for (; i < trace.length && kept.has(i); i++) entries.push(trace[i] as TraceEntry);
      parts.push({ kind: 'entries', entries });
    } else {
      const from = i;
      for (; i < trace.length && !kept.has(i); i++);
      parts.push({ kind: 'gap', from, to: i - 1 });
    }
  }
  return parts;
}

/** What a report says where entries were left out. */
export function gapText(gap: { from: number; to: number }): string {
  const n = gap.to - gap.from + 1;
  return `… ${n} ${n === 1 ? 'entry' : 'entries'} (#${gap.from}–#${gap.to}) not shown: a long run's report keeps its start, its end and its landmarks, and what its violations stand on; a replay of counterexample.json shows them all`;
}
