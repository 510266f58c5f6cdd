/**
 * A payouts worker written for a payment API (durasim's `payments` preset: docs/service-contract.md),
 * the way a Node service writes one — node:fs/promises, the global fetch, timers; no durasim API.
 * Each operation of the task is a payout: its body is the payout's JSON, POSTed to
 * `${task.service.url}/v1/payouts` with the operation's key in an `Idempotency-Key` header.
 *
 * - Records (durableRecords.ts): authorized (with the body, exactly as every send sends it) →
 *   dispatched (with the time) → succeeded (the payout's id) or conflict, failed, blocked; a send
 *   whose outcome is unknown → outcome_unknown → reconciling → a query or a send again.
 * - An answer is a success only when it is this payout: 200, the amounts and metadata it echoes are
 *   the ones sent, an id, status `paid`. A `pending` payout (or a 202) is asked about again: by its
 *   id when the answer named one (GET /v1/payouts/:id), else by sending again under the same key.
 * - The API's answers: another request with the key still in progress (409 `request_in_progress`)
 *   → wait and ask again; the key already used with other parameters (400 `idempotency_error`) →
 *   conflict, never a new key; invalid parameters (other 400s) → failed; 403 → blocked, and the task
 *   pauses; 503 → the `Retry-After` wait is recorded and kept before the next send, even after a
 *   restart; 500, a lost or cut answer, a time-out → unknown.
 * - A send again under the same key is safe only while the API keeps the key (24 hours, its docs
 *   say) and replays it (`task.service.idempotentReplay`): past the key's lifetime since the first
 *   send, or to a service that does not replay, the payout ends blocked for a human to check.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DiskView, JournalAdapter, JournalRecords, PublishOperation, Task } from 'durasim';
import { FINAL, Records, canonical, inspectRecords, releaseLease, takeLease } from '../durableRecords.js';

const LOG = 'payouts.jsonl';
const LOCK = 'payouts.lock';
/** How long the API keeps an idempotency key after it first saw it (its documentation). */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 2000;
const MAX_ROUNDS = 12;

type Answer =
  | { kind: 'paid'; id: string }
  | { kind: 'pending'; id?: string | undefined; reason: string }
  | { kind: 'conflict' | 'failed' | 'paused'; reason: string }
  | { kind: 'unknown'; reason: string; retryAfterMs?: number };

type Payout = { id?: unknown; object?: unknown; status?: unknown; amount?: unknown; currency?: unknown; metadata?: unknown };

/** Whether the payout the API describes is the one sent (the fields it echoes). */
function isThePayout(payout: Payout, sent: Record<string, unknown>): boolean {
  return payout.object === 'payout' && canonical(payout.amount) === canonical(sent.amount ?? null) && canonical(payout.currency) === canonical(sent.currency ?? null) && canonical(payout.metadata) === canonical(sent.metadata ?? null);
}

/** What a payout object (a created, replayed or fetched one) says. */
function payoutAnswer(payout: Payout | null, sent: Record<string, unknown>): Answer {
  if (payout === null || typeof payout !== 'object' || !isThePayout(payout, sent)) return { kind: 'unknown', reason: 'the answer is not this payout' };
  const id = typeof payout.id === 'string' && payout.id !== '' ? payout.id : undefined;
  if (payout.status === 'paid' && id !== undefined) return { kind: 'paid', id };
  if (payout.status === 'pending') return { kind: 'pending', id, reason: 'the payout is pending' };
  return { kind: 'unknown', reason: `a payout with status ${JSON.stringify(payout.status)} and id ${JSON.stringify(payout.id)}` };
}

async function judge(response: Response, sent: Record<string, unknown>): Promise<Answer> {
  const json = (await response.json().catch(() => null)) as (Payout & { error?: { type?: unknown; code?: unknown } }) | null;
  const error = json?.error;
  if (response.status === 200) return payoutAnswer(json, sent);
  if (response.status === 202) return { kind: 'pending', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined, reason: 'accepted, not yet paid' };
  if (response.status === 409 && error?.code === 'request_in_progress') return { kind: 'pending', reason: 'another request with this key is in progress' };
  if (response.status === 400 && error?.type === 'idempotency_error') return { kind: 'conflict', reason: 'the key was used with other parameters' };
  if (response.status === 400) return { kind: 'failed', reason: 'invalid parameters (400): the payout needs fixing' };
  if (response.status === 403) return { kind: 'paused', reason: 'permission refused (403): the task pauses' };
  if (response.status === 503) {
    const seconds = Number(response.headers.get('retry-after'));
    return { kind: 'unknown', reason: 'unavailable (503)', retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000 };
  }
  return { kind: 'unknown', reason: `status ${response.status}` };
}

async function call(url: string, init: RequestInit, sent: Record<string, unknown>): Promise<Answer> {
  try {
    return await judge(await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) }), sent);
  } catch (error) {
    return { kind: 'unknown', reason: `no answer: ${(error as Error).name}` };
  }
}

async function payout(op: PublishOperation, records: Records, task: Task): Promise<void> {
  const last = records.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const authorized = records.history(op.key).find((e) => e.state === 'authorized');
  const body = authorized?.body ?? JSON.stringify(JSON.parse(op.body));
  const sent = JSON.parse(body) as Record<string, unknown>;
  const record = (state: string, extra: Omit<Parameters<Records['add']>[0], 'key' | 'state'> = {}): Promise<void> => records.add({ key: op.key, state, ...extra });
  if (authorized === undefined) await record('authorized', { body });
  else if (last?.state === 'authorized' && canonical(JSON.parse(op.body)) !== canonical(sent)) return record('blocked', { reason: 'the payout changed after it was authorized' });
  const url = `${task.service.url}/v1/payouts`;
  let state = records.last(op.key)?.state ?? 'authorized';
  let id = [...records.history(op.key)].reverse().find((e) => e.receipt !== undefined)?.receipt;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (state !== 'authorized') {
      // In doubt (a restart, a lost or pending answer): ask by the payout's id when one is known.
      if (state !== 'reconciling') await record('reconciling');
      if (id !== undefined) {
        const found = await call(`${url}/${encodeURIComponent(id)}`, {}, sent);
        if (found.kind === 'paid') return record('succeeded', { receipt: found.id });
        if (found.kind === 'pending') {
          await sleep(500);
          state = 'reconciling';
          continue;
        }
      }
      // Sending again under the key is safe only while the API keeps it and replays it.
      const firstSentAt = records.history(op.key).find((e) => e.state === 'dispatched')?.at;
      if (!task.service.idempotentReplay) return record('blocked', { reason: 'the service does not replay a key: a send again could pay twice; check the payout by hand' });
      if (firstSentAt !== undefined && Date.now() - firstSentAt >= KEY_LIFETIME_MS) return record('blocked', { reason: 'the idempotency key has expired since the first send: a send again could pay twice; check the payout by hand' });
    }
    const next = [...records.history(op.key)].reverse().find((e) => e.nextAttemptAtMs !== undefined)?.nextAttemptAtMs;
    if (next !== undefined && next > Date.now()) await sleep(next - Date.now());
    await record('dispatched', { at: Date.now() });
    const answer = await call(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body }, sent);
    if (answer.kind === 'paid') return record('succeeded', { receipt: answer.id });
    if (answer.kind === 'conflict' || answer.kind === 'failed') return record(answer.kind, { reason: answer.reason });
    if (answer.kind === 'paused') return record('blocked', { reason: answer.reason, paused: true });
    if (answer.kind === 'pending') {
      if (answer.id !== undefined) id = answer.id;
      await record('outcome_unknown', { reason: answer.reason, ...(id !== undefined ? { receipt: id } : {}) });
      await sleep(1000);
    } else {
      const wait = answer.kind === 'unknown' ? answer.retryAfterMs : undefined;
      await record('outcome_unknown', { reason: answer.reason, ...(wait !== undefined ? { nextAttemptAtMs: Date.now() + wait + Math.floor((Math.random() * wait) / 2) } : {}) });
    }
    state = 'outcome_unknown';
  }
  // The model has blocked after reconciling, never straight after outcome_unknown: say the last look was taken.
  if (state === 'outcome_unknown') await record('reconciling');
  return record('blocked', { reason: `no verdict after ${MAX_ROUNDS} rounds` });
}

export const journal: JournalAdapter = {
  name: 'payments-worker',
  async run(env, task) {
    if (!(await takeLease(LOCK, env.pid))) return;
    const records = new Records(LOG);
    await records.open();
    for (const op of task.operations) {
      if (records.paused()) break; // a 403 paused the task, until a human resumes it
      if (op.kind === 'publish') await payout(op, records, task);
    }
    await records.close();
    await releaseLease(LOCK);
  },
  inspect(disk: DiskView): JournalRecords {
    return inspectRecords(disk.readFile(LOG));
  },
};
export default journal;
