import type { JudgeInput, RequestEvidence } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * failure-class-respected: each failure class the service answers gets its own answer.
 * - 400 (invalid arguments: the plan needs fixing): the incarnation that heard it sends that
 *   operation with those arguments no more, and no incarnation sends it once `failed` is durable.
 * - 403 (permission revoked: the task pauses): the incarnation that heard it sends no further
 *   write at all.
 * - 503 (unavailable, asking for retryAfterMs): the incarnation that heard it sends that operation
 *   again only after the wait it was asked for; and the operation never ends `failed` on it (a
 *   dependency that is down is not a verdict: back off, or hand off when the budget is spent).
 * Only an answer that reached its sender counts (not one dropped, reset, or given up on): an
 * incarnation is not judged by what it never heard, nor is a later one that found no record of it.
 */
export function checkFailureClassRespected(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const posts = input.requests.filter((r) => r.method === 'POST' && r.route.kind === 'publish');
  const after = (answer: RequestEvidence, match: (r: RequestEvidence) => boolean): RequestEvidence | undefined =>
    posts.find((r) => r.index > answer.index && r.sender === answer.sender && answer.sender !== undefined && match(r));
  const flag = (request: RequestEvidence, key: string, expected: string, actual: string, evidence: Record<string, unknown>): void => {
    violations.push({ code: 'failure-class-respected', key, step: request.seq ?? 0, expected, actual, evidence });
  };
  const reported = new Set<number>();
  for (const answer of posts) {
    const key = answer.route.key ?? '';
    if (answer.answered !== true) continue; // never heard: nothing to respect
    if (answer.status === 400) {
      const again = after(answer, (r) => r.route.key === key && r.digest === answer.digest);
      if (again && !reported.has(again.index)) {
        reported.add(again.index);
        flag(again, key, `no retry of ${key} after its arguments were refused as invalid (400, request #${answer.index}): the plan needs fixing`, `${again.sender ?? ''} sent it again (request #${again.index})`, { refused: answer.index, again: again.index });
      }
    }
    if (answer.status === 403) {
      const again = after(answer, () => true);
      if (again && !reported.has(again.index)) {
        reported.add(again.index);
        flag(again, again.route.key ?? '', `no further write from ${answer.sender ?? ''} after the permission was revoked (403, request #${answer.index}): the task pauses`, `it sent request #${again.index} (POST ${again.route.key ?? ''})`, { refused: answer.index, again: again.index });
      }
    }
    if (answer.status === 503 && answer.retryAfterMs !== undefined) {
      const notBefore = answer.atMs + answer.retryAfterMs;
      const early = after(answer, (r) => r.route.key === key && r.atMs < notBefore);
      if (early && !reported.has(early.index)) {
        reported.add(early.index);
        flag(early, key, `${key} sent again no sooner than ${answer.retryAfterMs} ms after the 503 that asked for that wait (request #${answer.index}, at ${answer.atMs} ms)`, `${early.sender ?? ''} sent it again ${early.atMs - answer.atMs} ms after (request #${early.index})`, { unavailable: answer.index, again: early.index, retryAfterMs: answer.retryAfterMs });
      }
    }
  }
  // Sent while its durable record already said the arguments were refused.
  for (const request of posts) {
    const key = request.route.key ?? '';
    if (reported.has(request.index) || request.recordsAtArrival?.[key]?.history.at(-1) !== 'failed') continue;
    if (!posts.some((r) => r.index < request.index && r.route.key === key && r.status === 400)) continue;
    reported.add(request.index);
    flag(request, key, `no send of ${key} once failed (invalid arguments, 400) is durable`, `${request.sender ?? ''} sent it (request #${request.index})`, { request: request.index });
  }
  // Ended failed on a 503: a transient class taken for a verdict.
  for (const op of input.scenario.task.operations) {
    if (op.kind !== 'publish' || input.final.visible[op.key]?.history.at(-1) !== 'failed') continue;
    const answered = posts.filter((r) => r.route.key === op.key && r.status !== 0);
    const last = answered.at(-1);
    if (last?.status !== 503 || answered.some((r) => r.status === 400)) continue;
    flag(last, op.key, `${op.key} backed off and sent again after the 503 (or blocked with a handoff once the retry budget is spent)`, `it ends failed on a 503 (request #${last.index}): a dependency that is down is not a verdict`, { unavailable: last.index });
  }
  return violations.sort((a, b) => a.step - b.step);
}
