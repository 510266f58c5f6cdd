import { digestOf } from '../contract/digest.js';
import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { taskIdOf } from './leases.js';

/**
 * projection-consistent: every projection of the task written to the store (<task id>/projection:
 * `{ events, digest }`) folds events that are there when it lands — the first `events` keys, in key
 * order, under <task id>/events/, whose values (each followed by a newline) have that SHA-256
 * digest. A projection ahead of its events, or of other events, is a checkpoint that lies about
 * what happened. A journal that writes no projection is not judged by this.
 */
export function checkProjectionConsistent(input: JudgeInput): Violation[] {
  const task = taskIdOf(input);
  const projectionKey = `${task}/projection`;
  const events = new Map<string, string>();
  const violations: Violation[] = [];
  for (const call of input.store?.calls ?? []) {
    const r = call.request;
    if (!call.applied || (r.op !== 'put' && r.op !== 'delete') || r.key === undefined) continue;
    if (r.key.startsWith(`${task}/events/`)) {
      if (r.op === 'put') events.set(r.key, r.value ?? '');
      else events.delete(r.key);
      continue;
    }
    if (r.key !== projectionKey || r.op !== 'put') continue;
    let claimed: { events?: unknown; digest?: unknown };
    try {
      claimed = JSON.parse(r.value ?? '') as typeof claimed;
    } catch {
      claimed = {};
    }
    const slots = [...events.keys()].sort();
    const count = typeof claimed.events === 'number' ? claimed.events : -1;
    const folded = slots.slice(0, Math.max(0, count)).map((key) => `${events.get(key)}\n`).join('');
    const fine = count >= 0 && count <= slots.length && digestOf(folded) === claimed.digest;
    if (fine) continue;
    violations.push({
      code: 'projection-consistent',
      key: projectionKey,
      step: call.seq,
      expected: `the projection written by ${call.by} to fold events that are in the store`,
      actual: count > slots.length ? `it claims ${count} events; the store holds ${slots.length}` : `it claims ${count} events with digest ${String(claimed.digest).slice(0, 12)}; those events digest to ${digestOf(folded).slice(0, 12)}`,
      evidence: { claimed, events: slots.length, call: call.index },
    });
  }
  return violations;
}
