import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/** completed-replayed: once succeeded is durable, the operation is never executed again. */
export function checkCompletedReplayed(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  for (const request of input.requests) {
    const records = request.recordsAtArrival;
    if (records === undefined) continue;
    let keys: string[] = [];
    if (request.route.kind === 'publish' && request.route.key !== undefined) keys = [request.route.key];
    if (request.route.kind === 'resource') {
      keys = input.scenario.task.operations.filter((op) => op.kind === 'lookup' && op.resource === request.route.name).map((op) => op.key);
    }
    const seq = request.seq ?? 0;
    // succeeded durable at arrival, or observed durable earlier (a record deleted since counts too).
    const durablySucceeded = (key: string): boolean =>
      records[key]?.history.includes('succeeded') === true || (input.observed[key] ?? []).some((o) => o.state === 'succeeded' && o.image === 'durable' && o.seq <= seq);
    if (keys.length === 0 || !keys.every(durablySucceeded)) continue;
    const key = keys[0] as string;
    violations.push({
      code: 'completed-replayed',
      key,
      step: request.seq ?? 0,
      expected: 'the saved result reused, no new request',
      actual: `request #${request.index} (${request.method}) after succeeded was durable`,
      evidence: { request: { index: request.index, method: request.method }, durableHistory: records[key]?.history },
    });
  }
  return violations;
}
