import { checkpoints, operationSpec, replayPromised, type JudgeInput, type ObservedState } from '../evidence.js';
import { ABSENT, allowedFrom, firstSkip, IN_DOUBT_STATES } from '../lifecycle.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/**
 * no-state-skip: the states of every key are a path in the model, and recovery from an in-doubt
 * state (dispatched, outcome_unknown) passes through reconciling. Judged on the
 * sequence durasim observed (observedHistory.ts), so a journal may report only its current state,
 * and on every history a journal recorded, where it reports one. The step marked is where the
 * offending state was first seen.
 *
 * A retry-safe call (a lookup, or a write marked retrySafe) has no effect to reconcile: after a
 * crash it may simply be sent again (dispatched → dispatched, or straight to its verdict). A write
 * to a service whose contract promises to keep its keys (replayPromised) is reconciled by sending it
 * again under its key — the replay is the service's answer — so after a crash it may go from doubt
 * to doubt (dispatched again, or outcome_unknown: the send again went unanswered), or to its
 * verdict once a send again reached the service; straight to a verdict, nothing asked, is still a skip.
 */
export function checkNoStateSkip(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  const reported = new Set<string>();
  const kinds = new Map<string, 'operation' | 'file'>();
  const images = [...input.crashes.map((c, i) => ({ label: `records after crash ${i + 1}`, seq: c.seq, records: c.visible })), ...checkpoints(input)];
  for (const image of images) for (const [key, record] of Object.entries(image.records)) kinds.set(key, record.kind);
  const kindOf = (key: string): 'operation' | 'file' =>
    kinds.get(key) ?? (input.scenario.task.operations.find((op) => op.key === key)?.kind === 'edit' ? 'file' : 'operation');
  const retrySafe = (key: string): boolean => {
    const spec = operationSpec(input, key);
    return spec?.kind === 'lookup' || (spec?.kind === 'publish' && spec.retrySafe === true);
  };
  const promised = replayPromised(input);
  /** A send again straight from doubt is allowed: a retry-safe call, or a write whose service promises the replay. */
  const resendable = (key: string): boolean => retrySafe(key) || (promised && operationSpec(input, key)?.kind === 'publish');

  for (const [key, states] of Object.entries(input.observed)) {
    const skip = firstSkip(kindOf(key), states.map((o) => o.state), { retrySafe: resendable(key) });
    if (!skip) continue;
    reported.add(key);
    const at = states[skip.index] as ObservedState;
    const said = { from: skip.index > 0 ? words.observed(states[skip.index - 1] as ObservedState) : null, to: words.observed(at) };
    violations.push({
      code: 'no-state-skip',
      key,
      step: at.seq,
      ...wording(kindOf(key), skip, resendable(key), said, (state) => words.state(key, state)),
      evidence: { observed: states.map(describeObserved), index: skip.index },
    });
  }
  for (const image of images) {
    for (const [key, record] of Object.entries(image.records)) {
      if (record.reported === 'state' || reported.has(key)) continue;
      const skip = firstSkip(record.kind, record.history, { retrySafe: resendable(key) });
      if (!skip) continue;
      reported.add(key);
      violations.push({
        code: 'no-state-skip',
        key,
        step: recordedSkipStep(input, key, record.history, skip.index, image.seq),
        ...wording(record.kind, skip, resendable(key), { from: skip.index > 0 ? words.entry(record, skip.index - 1) : null, to: words.entry(record, skip.index) }, (state) => words.state(key, state)),
        evidence: { history: record.history, at: image.label, index: skip.index },
      });
    }
  }
  input.crashes.forEach((crash, i) => {
    if (crash.survivors.length > 0) return; // a surviving worker may go on without recovering
    const until = input.crashes[i + 1]?.seq ?? Number.POSITIVE_INFINITY;
    for (const [key, states] of Object.entries(input.observed)) {
      if (reported.has(key) || retrySafe(key)) continue;
      const before = states.filter((o) => o.seq <= crash.seq).at(-1);
      // From reconciling, recovery is reconciling again: a current state cannot show the re-entry, and the path check judges what follows.
      if (before === undefined || before.state === 'reconciling' || !(IN_DOUBT_STATES as readonly string[]).includes(before.state)) continue;
      const next = states.find((o) => o.seq > crash.seq && o.seq <= until);
      // Under a promised replay the send again is the asking: recovery may go back to doubt (dispatched again, or
      // outcome_unknown when the send again got no answer), or to a verdict once a send again reached the service.
      const resent = (to: number): boolean => input.requests.some((r) => r.route.kind === 'publish' && r.route.key === key && (r.seq ?? 0) > crash.seq && (r.seq ?? 0) <= to);
      if (next === undefined || next.state === 'reconciling' || (resendable(key) && (next.state === 'dispatched' || next.state === 'outcome_unknown' || resent(next.seq)))) continue;
      reported.add(key);
      violations.push({
        code: 'no-state-skip',
        key,
        step: next.seq,
        expected: `recovery from ${words.observed(before)} after crash ${i + 1} to pass through ${words.state(key, 'reconciling')}`,
        actual: `${words.observed(before)} → ${words.observed(next)}`,
        evidence: { observed: states.map(describeObserved), crash: i + 1, crashStep: crash.seq },
      });
    }
  });
  return violations;
}

/** Where the entry at `index` of a recorded history first shows, at or before `upTo` (see the top). */
function recordedSkipStep(input: JudgeInput, key: string, history: readonly string[], index: number, upTo: number): number {
  const prefix = history.slice(0, index + 1);
  const holds = (h: readonly string[] | undefined): boolean => h !== undefined && h.length > index && prefix.every((state, i) => h[i] === state);
  const arrivals = input.requests.flatMap((r) => (r.seq !== undefined && r.seq <= upTo && holds(r.recordsAtArrival?.[key]?.history) ? [r.seq] : []));
  if (arrivals.length > 0) return Math.min(...arrivals);
  const state = prefix[index] as string;
  const nth = prefix.filter((s) => s === state).length;
  return input.observed[key]?.filter((o) => o.state === state && o.seq <= upTo)[nth - 1]?.seq ?? upTo;
}

/** The skip in words: `said` names its two entries as the journal does, `model` a state of the model (stateWords.ts). */
function wording(kind: 'operation' | 'file', skip: { from: string | null; to: string }, retrySafe: boolean, said: { from: string | null; to: string }, model: (state: string) => string): { expected: string; actual: string } {
  if (skip.from === null) return { expected: `the history to start at ${model(kind === 'operation' ? 'authorized' : 'read')}`, actual: `it starts at ${said.to}` };
  if (skip.from === ABSENT) return { expected: 'nothing after the record was deleted', actual: `absent → ${said.to}` };
  if (skip.to === ABSENT) return { expected: `the record kept until a terminal state, not deleted at ${said.from ?? skip.from}`, actual: `${said.from ?? skip.from} → absent (the record was deleted)` };
  const next = allowedFrom(kind, skip.from, { retrySafe });
  const allowed = next.length === 0 ? 'none: it is terminal' : next.map(model).join(', ');
  return { expected: `a transition the model allows from ${said.from ?? skip.from} (to ${allowed}; docs/invariants.md draws the model)`, actual: `${said.from ?? skip.from} → ${said.to}` };
}

function describeObserved(o: ObservedState): string {
  return `${o.state} at #${o.seq}${o.image === 'visible' ? ' (page cache, read by the next incarnation)' : ''}`;
}
