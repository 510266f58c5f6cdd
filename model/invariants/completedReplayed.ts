import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/**
 * completed-replayed: once succeeded is durable, the operation is never executed again. A retry-safe
 * read is excused when its sender decided on it before the completion: its incarnation was already
 * running when another's succeeded became durable, and had not read it itself (a worker paused past
 * its lease sends the read it chose before the pause; no journal can close that window, and a read
 * has no effect). The same incarnation reading again, or one started after the completion, is not.
 */
export function checkCompletedReplayed(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
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
    if (keys.every((key) => readDecidedBefore(input, request, key))) continue;
    const key = keys[0] as string;
    violations.push({
      code: 'completed-replayed',
      key,
      step: request.seq ?? 0,
      expected: 'the saved result reused, no new request',
      actual: `request #${request.index} (${request.method}) after ${words.state(key, 'succeeded')} was durable`,
      evidence: { request: { index: request.index, method: request.method }, durableHistory: records[key]?.history },
    });
  }
  return violations;
}

function readDecidedBefore(input: JudgeInput, request: JudgeInput['requests'][number], key: string): boolean {
  if (request.route.kind !== 'resource' || request.sender === undefined) return false;
  const completed = (input.observed[key] ?? []).find((o) => o.state === 'succeeded' && o.image === 'durable')?.seq;
  const started = input.trace.find((e) => e.actor === 'supervisor' && e.op === 'start' && e.detail === request.sender)?.seq;
  if (completed === undefined || started === undefined || started > completed) return false;
  const name = request.route.name;
  return !input.requests.some((r) => r !== request && r.sender === request.sender && r.route.kind === 'resource' && r.route.name === name && (r.seq ?? 0) < (request.seq ?? 0));
}
