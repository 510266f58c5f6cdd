/**
 * A journal that records no digest with its intent (a worker that keeps its own records: an id, a
 * state, a receipt) is judged on what it did send: the digest of its first request for the key
 * (the intent it authorized, as far as the service can tell), else the digest of the task's own
 * body for it (`intentDigests`). Every operation record without a digest is filled so, wherever
 * the judge reads records (the end, each crash, each request's arrival). A journal that records the
 * digest is held to the one it recorded: only a recorded digest lets the judge see a later
 * incarnation's changed arguments win (recorded-intent-wins).
 */
import type { JudgeInput, Records } from './evidence.js';

export function withRecordedIntents(input: JudgeInput): JudgeInput {
  const lacking = (records: Records | undefined): boolean => Object.values(records ?? {}).some((r) => r.kind === 'operation' && r.digest === undefined);
  const all = [input.final.durable, input.final.visible, ...input.crashes.flatMap((c) => [c.records, c.visible]), ...input.requests.map((r) => r.recordsAtArrival)];
  if (!all.some(lacking)) return input;
  const intents = new Map<string, string>();
  for (const request of input.requests) {
    const key = request.route.key;
    if (request.method === 'POST' && request.route.kind === 'publish' && key !== undefined && request.digest !== undefined && !intents.has(key)) intents.set(key, request.digest);
  }
  for (const [key, digest] of Object.entries(input.intentDigests ?? {})) if (!intents.has(key)) intents.set(key, digest);
  const fill = (records: Records): Records => {
    if (!lacking(records)) return records;
    return Object.fromEntries(Object.entries(records).map(([key, r]) => [key, r.kind === 'operation' && r.digest === undefined && intents.has(key) ? { ...r, digest: intents.get(key) as string } : r]));
  };
  return {
    ...input,
    final: { ...input.final, durable: fill(input.final.durable), visible: fill(input.final.visible) },
    crashes: input.crashes.map((c) => ({ ...c, records: fill(c.records), visible: fill(c.visible) })),
    requests: input.requests.map((r) => (r.recordsAtArrival === undefined ? r : { ...r, recordsAtArrival: fill(r.recordsAtArrival) })),
  };
}
