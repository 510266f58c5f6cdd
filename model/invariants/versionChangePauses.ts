import { sourceChanges, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { describeWait, lookBeforeSend, senderWaits, since } from './lookBeforeSend.js';

/**
 * version-change-pauses: a node whose plan was made from a version of a source (its operation's
 * `input`: a resource at the service, at a version) does not run once that source has changed: the
 * task pauses for replanning or approval instead. The journal must read the input right before
 * every send, after every wait on the way to it. A POST of such a node that arrives after the
 * change is allowed only as the race the change cannot win: its sender's last answered read of the
 * resource came after its previous POST (or its start) and before the change landed, and it did
 * not wait on time between that read and the send (the gate rule, lookBeforeSend.ts). No read
 * since its previous write, a read before a sleep or a 503's wait that the change landed during,
 * or a read that already showed the new version, is a node built on the old version run anyway.
 */
export function checkVersionChangePauses(input: JudgeInput): Violation[] {
  const changes = sourceChanges(input);
  if (changes.length === 0) return [];
  const violations: Violation[] = [];
  const posts = input.requests.filter((r) => r.method === 'POST' && r.route.kind === 'publish' && r.sender !== undefined && r.seq !== undefined);
  for (const post of posts) {
    const spec = input.scenario.task.operations.find((op) => op.key === post.route.key);
    const source = spec?.input;
    if (!source) continue;
    const seq = post.seq as number;
    const change = changes.find((c) => c.resource === source.resource && c.value !== source.version && c.seq < seq);
    if (!change) continue;
    const sender = post.sender as string;
    const reads = input.requests.filter((r) => r.sender === sender && r.route.kind === 'resource' && r.route.name === source.resource && r.answered === true && r.seq !== undefined);
    const verdict = lookBeforeSend(posts, post, reads.map((r) => r.seq as number), change.seq, senderWaits(input, sender));
    if (verdict.kind === 'raced') continue;
    const read = reads.filter((r) => (r.seq as number) < seq).at(-1);
    violations.push({
      code: 'version-change-pauses',
      key: post.route.key ?? '',
      step: seq,
      expected: `${post.route.key ?? ''} (planned from ${source.resource} ${JSON.stringify(source.version)}) not sent once ${source.resource} changed at #${change.seq}: the task pauses for replanning`,
      actual: verdict.kind === 'unlooked'
        ? `${sender} sent request #${post.index} without reading ${source.resource} since ${since(verdict.previous)}`
        : verdict.kind === 'waited'
          ? `${sender} read ${source.resource} at #${verdict.look}, then ${describeWait(verdict.wait)} (the change landed meanwhile), and sent request #${post.index} without reading it again`
          : `${sender} read ${source.resource} at #${verdict.look}, after the change, and still sent request #${post.index}`,
      evidence: { change, request: post.index, lastRead: read?.index ?? null, ...(verdict.kind === 'waited' ? { waitAfterRead: verdict.wait.seq } : {}) },
    });
  }
  return violations;
}
