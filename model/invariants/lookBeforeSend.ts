import type { RequestEvidence } from '../evidence.js';

/**
 * The rule cancel and input changes share: a worker must look (at the cancel file, at the input)
 * after its previous write and before each send. A write that arrives after the change landed is
 * the race the change cannot win when its sender's last look came after its previous write and
 * before the change; otherwise it either did not look since its previous write (or its start), or
 * looked, saw the change, and sent anyway.
 */
export type LookVerdict =
  | { kind: 'raced' }
  | { kind: 'unlooked'; previous: number; look?: number }
  | { kind: 'ignored'; previous: number; look: number };

/** `post` (a POST that arrived after `landedAt`) judged by `looks`: the trace positions of its sender's looks. */
export function lookBeforeSend(posts: readonly RequestEvidence[], post: RequestEvidence, looks: readonly number[], landedAt: number): LookVerdict {
  const seq = post.seq ?? 0;
  const previous = posts.filter((r) => r.sender === post.sender && (r.seq ?? 0) < seq).at(-1)?.seq ?? -1;
  const look = looks.filter((s) => s < seq).at(-1);
  if (look === undefined || look <= previous) return look === undefined ? { kind: 'unlooked', previous } : { kind: 'unlooked', previous, look };
  return look < landedAt ? { kind: 'raced' } : { kind: 'ignored', previous, look };
}

/** "since it started" or "since its previous write". */
export const since = (previous: number): string => (previous < 0 ? 'it started' : 'its previous write');
