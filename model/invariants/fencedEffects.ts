import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { leaseTenures, slotOf, workersTakeLease } from './leases.js';

/**
 * fenced-effects: when the journal's workers take the task's lease, every effect the service commits carries a
 * fencing token that the store granted to the worker slot that sent it. Without one the service
 * cannot refuse a paused former holder, and its late write commits beside its successor's.
 */
export function checkFencedEffects(input: JudgeInput): Violation[] {
  const tenures = leaseTenures(input);
  if (!workersTakeLease(tenures)) return [];
  const violations: Violation[] = [];
  for (const effect of input.effects) {
    if (effect.requestIndex === null) continue;
    const request = input.requests[effect.requestIndex];
    const sender = request?.sender === undefined ? undefined : slotOf(request.sender);
    const token = effect.fencingToken;
    const granted = tenures.find((t) => t.token === token);
    if (token !== undefined && granted !== undefined && granted.holder === sender) continue;
    violations.push({
      code: 'fenced-effects',
      key: effect.key,
      step: effect.seq ?? request?.seq ?? 0,
      expected: `the effect of ${effect.key} committed under a fencing token of ${sender ?? 'its sender'}'s lease`,
      actual: token === undefined ? `request #${effect.requestIndex} from ${request?.sender ?? 'an unknown sender'} carried no fencing token` : granted ? `it carried token ${token}, granted to ${granted.holder}` : `it carried token ${token}, which the store never granted`,
      evidence: { effect: { key: effect.key, receipt: effect.receipt, seq: effect.seq, token }, sender: request?.sender, tenures },
    });
  }
  return violations;
}
