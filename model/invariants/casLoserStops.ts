import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { isConditional, isTaskKey } from './leases.js';

/**
 * cas-loser-stops: a worker incarnation whose compare-and-set on one of the task's keys was
 * refused (it read the refusal: a timed-out call does not count) sends no further write to the
 * service. It may still ask (GET) — handing its operation to reconciliation — but a side effect
 * after losing the race is a second advancer acting on a stale view. A refusal caused by the
 * worker's own earlier write (a try whose answer it never heard) is no race lost.
 */
export function checkCasLoserStops(input: JudgeInput): Violation[] {
  const calls = input.store?.calls ?? [];
  const violations: Violation[] = [];
  const reported = new Set<string>();
  for (const lost of calls) {
    if (!isConditional(lost.request) || lost.answer.ok || lost.fault !== undefined || reported.has(lost.by) || !isTaskKey(input, lost.request.key)) continue;
    // Refused because of its own earlier write (a try whose answer it never heard) is no race lost.
    const holder = lost.answer.version === undefined ? undefined : calls.find((c) => c.applied && (c.request.op === 'put' || c.request.op === 'delete') && c.request.key === lost.request.key && c.answer.version === lost.answer.version && c.index < lost.index);
    if (holder?.by === lost.by) continue;
    const after = input.requests.find((r) => r.sender === lost.by && r.route.kind === 'publish' && (r.seq ?? -1) > lost.seq);
    if (!after) continue;
    reported.add(lost.by);
    violations.push({
      code: 'cas-loser-stops',
      key: after.route.key ?? '',
      step: after.seq as number,
      expected: `no write from ${lost.by} after its compare-and-set on ${lost.request.key} was refused at #${lost.seq}`,
      actual: `it sent request #${after.index} (${after.method} ${after.route.key ?? after.route.name ?? ''})`,
      evidence: { refused: { call: lost.index, seq: lost.seq, key: lost.request.key, ifVersion: lost.request.ifVersion, ifAbsent: lost.request.ifAbsent, heldVersion: lost.answer.version }, request: { index: after.index, seq: after.seq, sender: after.sender } },
    });
  }
  return violations;
}
