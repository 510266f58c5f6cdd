import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { holderAt, isConditional, isTaskKey, leaseTenures, workersTakeLease } from './leases.js';

/**
 * takeover-exclusive: while an operator holds the task's lease (from its takeover until it hands
 * back, or another operator takes over from it), no agent worker has a side effect — no write it
 * sends meanwhile takes effect at the service, and no advance of the task applies in the store —
 * and no agent ever force-releases an operator's lease. A journal whose
 * workers never take the task's lease does not take part in takeovers and is not judged by this.
 */
export function checkTakeoverExclusive(input: JudgeInput): Violation[] {
  const tenures = leaseTenures(input);
  if (!workersTakeLease(tenures) || !tenures.some((t) => !t.holder.startsWith('worker-'))) return [];
  const offset = input.store?.offsetMs ?? 0;
  const operatorAt = (seq: number, storeTimeMs: number) => {
    const holder = holderAt(tenures, seq, storeTimeMs);
    return holder && !holder.holder.startsWith('worker-') ? holder : undefined;
  };
  const violations: Violation[] = [];
  const expected = (what: string): string => `no agent ${what} while an operator holds the task`;
  for (const effect of input.effects) {
    const request = effect.requestIndex === null ? undefined : input.requests[effect.requestIndex];
    if (request?.route.kind !== 'publish' || !request.sender?.startsWith('worker-') || request.seq === undefined) continue;
    const holder = operatorAt(request.seq, request.atMs + offset);
    if (!holder) continue;
    violations.push({
      code: 'takeover-exclusive',
      key: effect.key,
      step: request.seq,
      expected: expected('write to the service'),
      actual: `${request.sender} sent request #${request.index} (POST ${effect.key}) while ${holder.holder} held the task (token ${holder.token}), and it took effect (${effect.receipt})`,
      evidence: { holder, request: { index: request.index, seq: request.seq, sender: request.sender, status: request.status }, effect: { receipt: effect.receipt, seq: effect.seq } },
    });
  }
  for (const call of input.store?.calls ?? []) {
    if (!call.applied || !call.by.startsWith('worker-')) continue;
    const r = call.request;
    if (r.op === 'release' && r.force && call.answer.lease && !call.answer.lease.holder.startsWith('worker-')) {
      violations.push({
        code: 'takeover-exclusive',
        key: r.name ?? '',
        step: call.seq,
        expected: "no agent force-releases an operator's lease",
        actual: `${call.by} force-released ${call.answer.lease.holder}'s lease on ${r.name} (reason: ${r.reason ?? 'none'})`,
        evidence: { call: call.index, lease: call.answer.lease },
      });
      continue;
    }
    if (!isConditional(r) || !isTaskKey(input, r.key)) continue;
    const holder = operatorAt(call.seq, call.storeTimeMs);
    if (!holder) continue;
    violations.push({
      code: 'takeover-exclusive',
      key: r.key as string,
      step: call.seq,
      expected: expected('advance of the task'),
      actual: `${call.by} advanced ${r.key} in the store while ${holder.holder} held the task (token ${holder.token})`,
      evidence: { holder, call: call.index },
    });
  }
  return violations;
}
