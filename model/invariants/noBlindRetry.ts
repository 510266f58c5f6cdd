import { operationSpec, taskKeys, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * no-blind-retry: a non-retry-safe write is never sent under a key the task did not give, and is
 * sent again under its own key only when the service promises idempotent replay (durable memory).
 */
export function checkNoBlindRetry(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const keys = taskKeys(input);
  const sent = new Map<string, number>();
  for (const request of input.requests) {
    if (request.route.kind !== 'publish' || request.route.key === undefined) continue;
    const key = request.route.key;
    if (!keys.has(key)) {
      violations.push({
        code: 'no-blind-retry',
        key,
        step: request.seq ?? 0,
        expected: 'writes only under the keys the task gave',
        actual: `request #${request.index} under the invented key ${JSON.stringify(key)}`,
        evidence: { request: { index: request.index, digest: request.digest }, taskKeys: [...keys] },
      });
      continue;
    }
    const count = (sent.get(key) ?? 0) + 1;
    sent.set(key, count);
    if (count < 2 || operationSpec(input, key)?.retrySafe === true || input.scenario.service.idempotencyMemory === 'durable') continue;
    violations.push({
      code: 'no-blind-retry',
      key,
      step: request.seq ?? 0,
      expected: 'no second send of a non-retry-safe write to a service that promises no idempotent replay',
      actual: `request #${request.index} is send number ${count} of ${key}`,
      evidence: { request: { index: request.index, digest: request.digest }, idempotencyMemory: input.scenario.service.idempotencyMemory },
    });
  }
  return violations;
}
