import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { cancelChecks, cancelFileFor, cancelledAt } from './cancellation.js';
import { describeWait, lookBeforeSend, senderWaits, since } from './lookBeforeSend.js';

/**
 * no-effect-after-cancel: once the user's cancel has landed, no new write leaves for the service.
 * The journal must look at the cancel file (task.cancelFile) when claiming a node, before every
 * send and every retry, and after every wait on the way to a send. A POST that arrives after the
 * cancel is allowed only as the race the cancel cannot win: its sender's last look at the file came
 * after its previous POST (or its start) and before the cancel landed, and it did not wait on time
 * between that look and the send (the gate rule, lookBeforeSend.ts). Anything else — no look since
 * its previous write (checked only at the start), a look before a sleep or a 503's wait that the
 * cancel landed during, or a look that already saw the cancel — is a new side effect after it.
 */
export function checkNoEffectAfterCancel(input: JudgeInput): Violation[] {
  const cancel = cancelledAt(input);
  if (cancel === undefined) return [];
  const checks = cancelChecks(input);
  const file = cancelFileFor(input);
  const violations: Violation[] = [];
  const posts = input.requests.filter((r) => r.method === 'POST' && r.route.kind === 'publish' && r.sender !== undefined && r.seq !== undefined);
  const reported = new Set<string>();
  for (const post of posts) {
    const seq = post.seq as number;
    const sender = post.sender as string;
    if (seq < cancel || reported.has(sender)) continue;
    const verdict = lookBeforeSend(posts, post, checks.filter((c) => c.by === sender).map((c) => c.seq), cancel, senderWaits(input, sender));
    if (verdict.kind === 'raced') continue;
    reported.add(sender);
    violations.push({
      code: 'no-effect-after-cancel',
      key: post.route.key ?? '',
      step: seq,
      expected: `no new write after the task was cancelled at #${cancel} (${file})`,
      actual: verdict.kind === 'unlooked'
        ? `${sender} sent request #${post.index} (POST ${post.route.key ?? ''}) without looking at ${file} since ${since(verdict.previous)}`
        : verdict.kind === 'waited'
          ? `${sender} looked at ${file} at #${verdict.look}, then ${describeWait(verdict.wait)} (the cancel landed meanwhile), and sent request #${post.index} (POST ${post.route.key ?? ''}) without looking again`
          : `${sender} looked at ${file} at #${verdict.look}, after the cancel, and still sent request #${post.index} (POST ${post.route.key ?? ''})`,
      evidence: { cancelledAt: cancel, request: post.index, lastLook: verdict.look ?? null, previousWrite: verdict.previous < 0 ? null : verdict.previous, ...(verdict.kind === 'waited' ? { waitAfterLook: verdict.wait.seq } : {}) },
    });
  }
  return violations;
}
