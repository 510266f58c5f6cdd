import type { JudgeInput, RequestEvidence } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/**
 * failure-class-respected: each failure class the service answers gets its own answer.
 * - 400 (invalid arguments: the plan needs fixing): the incarnation that heard it sends that
 *   operation with those arguments no more, and no incarnation sends it once `failed` is durable.
 * - 403 (permission revoked: the task pauses): no further write at all, from the incarnation that
 *   heard it or a later one (the scenario format has no operator's resume for it).
 * - 503 (unavailable, asking for retryAfterMs): that operation is sent again only after the wait it
 *   was asked for, by the incarnation that heard it or a later one; and it never ends `failed` on it
 *   (a dependency that is down is not a verdict: back off, or hand off when the budget is spent).
 * The pause and the wait bind the task, not the incarnation: the service protocol says to keep them
 * where a restart finds them. A later incarnation (or another worker) is held to them once the one
 * that heard the answer recorded the key again after hearing it, in a record a restart finds
 * (durable, or kept by the process kill that ended it): so record the wait or the pause with that
 * outcome, not after it. One that died or failed before recording anything more of the key
 * leaves nothing a restart could find: the next incarnation is not judged by it.
 * Only an answer that reached its sender counts (not one dropped, reset, or given up on).
 */
export function checkFailureClassRespected(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  const posts = input.requests.filter((r) => r.method === 'POST' && r.route.kind === 'publish');
  const recorded = recordedAfterHearing(input);
  /** The first later POST that is bound by what the answer asked: its hearer's own, or anyone's once the hearer had recorded the key again where a restart finds it. */
  const after = (answer: RequestEvidence, match: (r: RequestEvidence) => boolean, bindsLater: boolean): RequestEvidence | undefined => {
    if (answer.sender === undefined) return undefined;
    const chance = bindsLater ? recorded(answer) : undefined;
    return posts.find((r) => r.index > answer.index && match(r) && (r.sender === answer.sender || (chance !== undefined && (r.seq ?? 0) > chance.seq)));
  };
  const who = (again: RequestEvidence, answer: RequestEvidence): string =>
    again.sender === answer.sender ? `${again.sender ?? ''}, which heard it,` : `${again.sender ?? ''}, a later incarnation or another worker,`;
  /** Why a later sender is held to an answer it did not hear: where its hearer could have kept it. */
  const since = (again: RequestEvidence, answer: RequestEvidence): string => {
    if (again.sender === answer.sender) return '';
    const chance = recorded(answer);
    const key = answer.route.key ?? '';
    const how = chance?.how === 'kept' ? `recorded ${key} again at #${chance.seq}, a record its crash kept` : `recorded ${key} durably again at #${chance?.seq ?? 0}`;
    return `; ${answer.sender ?? ''} heard it and ${how}: it had the chance to keep it where a restart finds it`;
  };
  const flag = (request: RequestEvidence, key: string, expected: string, actual: string, evidence: Record<string, unknown>): void => {
    violations.push({ code: 'failure-class-respected', key, step: request.seq ?? 0, expected, actual, evidence });
  };
  const reported = new Set<number>();
  for (const answer of posts) {
    const key = answer.route.key ?? '';
    if (answer.answered !== true) continue; // never heard: nothing to respect
    if (answer.status === 400) {
      const again = after(answer, (r) => r.route.key === key && r.digest === answer.digest, false);
      if (again && !reported.has(again.index)) {
        reported.add(again.index);
        flag(again, key, `no retry of ${key} after its arguments were refused as invalid (400, request #${answer.index}): the plan needs fixing`, `${again.sender ?? ''} sent it again (request #${again.index})`, { refused: answer.index, again: again.index });
      }
    }
    if (answer.status === 403) {
      const again = after(answer, () => true, true);
      if (again && !reported.has(again.index)) {
        reported.add(again.index);
        flag(again, again.route.key ?? '', `no further write after the permission was revoked (403, request #${answer.index}, heard by ${answer.sender ?? ''}): the task stays paused, across restarts`, `${who(again, answer)} sent request #${again.index} (POST ${again.route.key ?? ''})${since(again, answer)}`, { refused: answer.index, again: again.index, heardBy: answer.sender, sentBy: again.sender });
      }
    }
    if (answer.status === 503 && answer.retryAfterMs !== undefined) {
      const notBefore = answer.atMs + answer.retryAfterMs;
      const early = after(answer, (r) => r.route.key === key && r.atMs < notBefore, true);
      if (early && !reported.has(early.index)) {
        reported.add(early.index);
        flag(early, key, `${key} sent again no sooner than ${answer.retryAfterMs} ms after the 503 that asked for that wait (request #${answer.index}, at ${answer.atMs} ms, heard by ${answer.sender ?? ''}), across restarts`, `${who(early, answer)} sent it again ${early.atMs - answer.atMs} ms after (request #${early.index})${since(early, answer)}`, { unavailable: answer.index, again: early.index, retryAfterMs: answer.retryAfterMs, heardBy: answer.sender, sentBy: early.sender });
      }
    }
  }
  // Sent while its durable record already said the arguments were refused.
  for (const request of posts) {
    const key = request.route.key ?? '';
    if (reported.has(request.index) || request.recordsAtArrival?.[key]?.history.at(-1) !== 'failed') continue;
    if (!posts.some((r) => r.index < request.index && r.route.key === key && r.status === 400)) continue;
    reported.add(request.index);
    flag(request, key, `no send of ${key} once ${words.state(key, 'failed')} (invalid arguments, 400) is durable`, `${request.sender ?? ''} sent it (request #${request.index})`, { request: request.index });
  }
  // Ended failed on a 503: a transient class taken for a verdict.
  for (const op of input.scenario.task.operations) {
    if (op.kind !== 'publish' || input.final.visible[op.key]?.history.at(-1) !== 'failed') continue;
    const answered = posts.filter((r) => r.route.key === op.key && r.status !== 0);
    const last = answered.at(-1);
    if (last?.status !== 503 || answered.some((r) => r.status === 400)) continue;
    const ended = input.final.visible[op.key] as { history: string[] };
    flag(last, op.key, `${op.key} backed off and sent again after the 503 (or ${words.state(op.key, 'blocked')} with a handoff once the retry budget is spent)`, `it ends ${words.entry(ended, ended.history.length - 1)} on a 503 (request #${last.index}): a dependency that is down is not a verdict`, { unavailable: last.index });
  }
  return violations.sort((a, b) => a.step - b.step);
}

/**
 * For an answer heard by its sender: the trace position from which the hearer had recorded the
 * key again after hearing it, in a record a restart finds (durable, or kept by the crash that
 * killed it), or undefined when it recorded nothing more of it (it died, or ended, first).
 * Only a record *written* after hearing counts: what the hearer wrote before (its page cache at
 * hearing, `heardHistory`) and saw become durable, or kept by its crash, only afterwards is not
 * a record of the answer, and it had no chance to keep one.
 */
function recordedAfterHearing(input: JudgeInput): (answer: RequestEvidence) => { seq: number; how: 'recorded' | 'kept' } | undefined {
  const last = new Map<string, number>();
  for (const line of input.trace) if (line.incarnation !== undefined) last.set(`${line.actor}#${line.incarnation}`, line.seq);
  return (answer) => {
    const heard = answer.doneSeq;
    const end = answer.sender === undefined ? undefined : last.get(answer.sender);
    if (heard === undefined || end === undefined) return undefined;
    const key = answer.route.key ?? '';
    // A record written after hearing counts where a restart could find it: kept by the crash that killed the hearer, if one did.
    const death = input.crashes.find((c) => c.seq >= end && (c.killed ?? []).includes(answer.sender ?? ''));
    const kept = death === undefined ? undefined : death.visible[key]?.history.at(-1);
    const states = input.observed[key] ?? [];
    // The states written before hearing that no observation had shown yet: seen later, they are old news.
    const pending = writtenUnseen(states.filter((o) => o.seq <= heard).map((o) => o.state), answer.heardHistory ?? []);
    for (const o of states) {
      if (o.seq <= heard) continue;
      if (o.seq > (death?.seq ?? end)) break;
      if (pending[0] === o.state) {
        pending.shift();
        continue;
      }
      if (death === undefined ? o.image === 'durable' : o.state === kept) return { seq: o.seq, how: death === undefined ? 'recorded' : 'kept' };
    }
    return undefined;
  };
}

/** The tail of the history the hearer had written (`written`) that the observations so far (`seen`) had not shown yet. */
function writtenUnseen(seen: readonly string[], written: readonly string[]): string[] {
  const lastSeen = seen.at(-1);
  if (lastSeen === undefined) return [...written];
  const at = written.lastIndexOf(lastSeen);
  return at === -1 ? [...written] : written.slice(at + 1);
}
