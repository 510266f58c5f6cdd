import { digestOf } from '../contract/digest.js';
import type { JudgeInput, StoreCallEvidence } from '../evidence.js';
import type { Violation } from '../violation.js';
import { taskIdOf } from './leases.js';

/**
 * projection-consistent: the projection of the task (<task id>/projection: `{ events, digest }`)
 * must fold the events it claims — the first `events` keys, in key order, under <task id>/events/,
 * whose values (each followed by a newline) have that SHA-256 digest.
 * 1. Every projection a worker writes folds events that are in the store when it lands: one ahead
 *    of its events, or of other events, is a checkpoint that lies about what happened.
 * 2. A worker that read a projection that does not fold the store's events (someone else wrote it:
 *    a store-edit fault, an older build) quarantines the task instead of advancing it: that
 *    incarnation writes no further event and sends no further write to the service. A stale read
 *    answers an older projection, which folds a prefix of the events, so it is no lie.
 * A journal that writes no projection and reads none is not judged by this.
 */
export function checkProjectionConsistent(input: JudgeInput): Violation[] {
  const task = taskIdOf(input);
  const violations: Violation[] = [];
  const lies = projectionLiesRead(input);
  for (const { call, claimed, held, digest } of projectionStates(input)) {
    if (call.request.op !== 'put' || !call.by.startsWith('worker-')) continue;
    if (digest === undefined) continue;
    violations.push({
      code: 'projection-consistent',
      key: `${task}/projection`,
      step: call.seq,
      expected: `the projection written by ${call.by} to fold events that are in the store`,
      actual: describeLie(claimed, held, digest),
      evidence: { claimed, events: held, call: call.index },
    });
  }
  for (const lie of lies) {
    const eventAfter = (input.store?.calls ?? []).find((c) => c.by === lie.by && c.seq > lie.seq && c.applied && c.request.op === 'put' && c.request.key?.startsWith(`${task}/events/`));
    const postAfter = input.requests.find((r) => r.sender === lie.by && r.method === 'POST' && (r.seq ?? -1) > lie.seq);
    const first = [eventAfter && { seq: eventAfter.seq, what: `it wrote event ${eventAfter.request.key ?? ''}` }, postAfter && { seq: postAfter.seq ?? 0, what: `it sent request #${postAfter.index} (POST ${postAfter.route.key ?? ''})` }]
      .filter((x): x is { seq: number; what: string } => Boolean(x))
      .sort((a, b) => a.seq - b.seq)[0];
    if (!first) continue;
    violations.push({
      code: 'projection-consistent',
      key: `${task}/projection`,
      step: first.seq,
      expected: `${lie.by} to quarantine the task after it read a projection that does not fold the events (#${lie.seq}: ${lie.actual}), and to advance it no further`,
      actual: first.what,
      evidence: { read: { call: lie.index, seq: lie.seq, claimed: lie.claimed, events: lie.events } },
    });
  }
  return violations;
}

export interface ProjectionLieRead {
  /** The reader: worker-<pid>#<incarnation>, its first such read. */
  by: string;
  seq: number;
  index: number;
  claimed: unknown;
  events: number;
  actual: string;
}

/** The first read, per worker incarnation, of a projection that does not fold the store's events at that moment. */
export function projectionLiesRead(input: JudgeInput): ProjectionLieRead[] {
  const seen = new Map<string, ProjectionLieRead>();
  for (const { call, claimed, held, digest } of projectionStates(input)) {
    if ((call.request.op !== 'get' && call.request.op !== 'list') || digest === undefined || seen.has(call.by) || !call.by.startsWith('worker-')) continue;
    seen.set(call.by, { by: call.by, seq: call.seq, index: call.index, claimed, events: held, actual: describeLie(claimed, held, digest) });
  }
  return [...seen.values()];
}

interface ProjectionState {
  call: StoreCallEvidence;
  claimed: { events?: unknown; digest?: unknown };
  /** How many events the store held then. */
  held: number;
  /** The digest the claimed events fold to, when the projection does not fold them; undefined when it does. */
  digest: string | undefined;
}

/**
 * Every projection written (applied put) or read (a get, or a list of a prefix of its key, that a
 * worker heard, answering one), judged
 * against the events the store truly held at that moment (replayed from its ground truth; a
 * volatile restart forgets them all).
 */
function projectionStates(input: JudgeInput): ProjectionState[] {
  const task = taskIdOf(input);
  const projectionKey = `${task}/projection`;
  const events = new Map<string, string>();
  const states: ProjectionState[] = [];
  const store = input.store;
  if (!store) return states;
  const timeline = [...store.calls.map((call) => ({ seq: call.seq, call })), ...store.restarts.filter((r) => r.memory === 'volatile').map((r) => ({ seq: r.seq, call: undefined }))].sort((a, b) => a.seq - b.seq);
  for (const { call } of timeline) {
    if (!call) {
      events.clear();
      continue;
    }
    const r = call.request;
    if (r.key?.startsWith(`${task}/events/`) && call.applied) {
      if (r.op === 'put') events.set(r.key, r.value ?? '');
      if (r.op === 'delete') events.delete(r.key);
      continue;
    }
    const heard = call.fault !== 'timeout-after-apply' && call.fault !== 'timeout-before-apply';
    const listed = r.op === 'list' && r.prefix !== undefined && projectionKey.startsWith(r.prefix);
    if (r.key !== projectionKey && !listed) continue;
    const value = r.op === 'put' && call.applied ? r.value : !heard ? undefined : r.op === 'get' ? call.answer.entry?.value : listed ? call.answer.entries?.find((e) => e.key === projectionKey)?.value : undefined;
    if (value === undefined) continue;
    let claimed: ProjectionState['claimed'];
    try {
      claimed = JSON.parse(value) as ProjectionState['claimed'];
    } catch {
      claimed = {};
    }
    const slots = [...events.keys()].sort();
    const count = typeof claimed.events === 'number' ? claimed.events : -1;
    const digest = digestOf(slots.slice(0, Math.max(0, count)).map((key) => `${events.get(key)}\n`).join(''));
    const fine = count >= 0 && count <= slots.length && digest === claimed.digest;
    states.push({ call, claimed, held: slots.length, digest: fine ? undefined : digest });
  }
  return states;
}

function describeLie(claimed: ProjectionState['claimed'], held: number, digest: string): string {
  const count = typeof claimed.events === 'number' ? claimed.events : -1;
  const events = (n: number): string => `${n} event${n === 1 ? '' : 's'}`;
  return count > held ? `it claims ${events(count)}; the store holds ${held}` : `it claims ${events(count)} with digest ${String(claimed.digest).slice(0, 12)}; those events digest to ${digest.slice(0, 12)}`;
}
