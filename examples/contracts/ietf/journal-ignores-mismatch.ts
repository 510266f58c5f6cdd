/**
 * DEFECTIVE COPY of journal.ts (examples/contracts): it ignores the mismatch answer. A 422 (the key
 * was reused with another payload) is read as "this key was done before": the transfer is recorded
 * succeeded, with no id, instead of conflict. Expected to be found by truthful-outcome (succeeded,
 * though the service holds another transfer under the key, and no receipt) when the key already
 * holds another intent: the intent family, whose new body another writer registered first.
 *
 * A transfers worker written for an API that follows the IETF's Idempotency-Key draft (durasim's
 * `ietf` preset, its routes this API's own: docs/service-contract.md), the way a Node service writes
 * one — node:fs/promises, the global fetch, timers; no durasim API. Each operation of the task is a
 * transfer: its body is the transfer's JSON, POSTed to `${task.service.url}/v1/transfers` with the
 * operation's key in an `Idempotency-Key` header.
 *
 * - Records (durableRecords.ts): authorized (with the body, exactly as every send sends it) →
 *   dispatched (with the time) → succeeded (the transfer's id) or conflict, failed, blocked; a send
 *   whose outcome is unknown → outcome_unknown → reconciling → a query or a send again.
 * - An answer is a success only when it is a transfer with an id and status `committed`. A
 *   `pending` one is asked about again: by its id when the answer named one (GET
 *   /v1/transfers/:id), else by sending again under the same key.
 * - The draft's answers (problem+json): a request with the key still being processed (409
 *   `request-in-progress`) → wait and ask again; the key reused with another payload (422) →
 *   conflict, never a new key; a bad request (400) → failed; 403 → blocked, and the task pauses;
 *   503 → the `Retry-After` wait is recorded and kept before the next send, even after a restart;
 *   500, a lost or cut answer, a time-out → unknown.
 * - A send again under the same key is safe only while the API keeps the key (24 hours, its docs
 *   say) and replays it (`task.service.idempotentReplay`): past the key's lifetime since the first
 *   send, or to a service that does not replay, the transfer ends blocked for a human to check.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DiskView, JournalAdapter, JournalRecords, PublishOperation, Task } from 'durasim';
import { FINAL, Records, canonical, inspectRecords, releaseLease, takeLease } from '../durableRecords.js';

const LOG = 'transfers.jsonl';
const LOCK = 'transfers.lock';
/** How long the API keeps an idempotency key after it first saw it (its documentation). */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 2000;
const MAX_ROUNDS = 12;

type Answer =
  | { kind: 'committed'; id: string }
  | { kind: 'pending'; id?: string | undefined; reason: string }
  | { kind: 'conflict' | 'failed' | 'paused'; reason: string }
  | { kind: 'unknown'; reason: string; retryAfterMs?: number };

type Transfer = { id?: unknown; status?: unknown };
const PROBLEMS = 'https://durasim.dev/problems/';

/** What a transfer (a created, replayed or fetched one) says. */
function transferAnswer(transfer: Transfer | null): Answer {
  if (transfer === null || typeof transfer !== 'object') return { kind: 'unknown', reason: 'the answer is no transfer' };
  const id = typeof transfer.id === 'string' && transfer.id !== '' ? transfer.id : undefined;
  if (transfer.status === 'committed' && id !== undefined) return { kind: 'committed', id };
  if (transfer.status === 'pending') return { kind: 'pending', id, reason: 'the transfer is pending' };
  return { kind: 'unknown', reason: `a transfer with status ${JSON.stringify(transfer.status)} and id ${JSON.stringify(transfer.id)}` };
}

async function judge(response: Response): Promise<Answer> {
  const json = (await response.json().catch(() => null)) as (Transfer & { type?: unknown }) | null;
  const problem = typeof json?.type === 'string' && json.type.startsWith(PROBLEMS) ? json.type.slice(PROBLEMS.length) : undefined;
  if (response.status === 200 || response.status === 201) return transferAnswer(json);
  if (response.status === 202) return { kind: 'pending', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined, reason: 'accepted, not yet committed' };
  if (response.status === 409 && problem === 'request-in-progress') return { kind: 'pending', reason: 'a request with this key is still being processed' };
  if (response.status === 422) return { kind: 'committed', id: '' }; // the key was used: done before
  if (response.status === 400) return { kind: 'failed', reason: `a bad request (400, ${problem ?? 'no problem type'}): the transfer needs fixing` };
  if (response.status === 403) return { kind: 'paused', reason: 'forbidden (403): the task pauses' };
  if (response.status === 503) {
    const seconds = Number(response.headers.get('retry-after'));
    return { kind: 'unknown', reason: 'unavailable (503)', retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000 };
  }
  return { kind: 'unknown', reason: `status ${response.status}` };
}

async function call(url: string, init: RequestInit): Promise<Answer> {
  try {
    return await judge(await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) }));
  } catch (error) {
    return { kind: 'unknown', reason: `no answer: ${(error as Error).name}` };
  }
}

async function transfer(op: PublishOperation, records: Records, task: Task): Promise<void> {
  const last = records.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const authorized = records.history(op.key).find((e) => e.state === 'authorized');
  const body = authorized?.body ?? JSON.stringify(JSON.parse(op.body));
  const record = (state: string, extra: Omit<Parameters<Records['add']>[0], 'key' | 'state'> = {}): Promise<void> => records.add({ key: op.key, state, ...extra });
  if (authorized === undefined) await record('authorized', { body });
  else if (last?.state === 'authorized' && canonical(JSON.parse(op.body)) !== canonical(JSON.parse(body))) return record('blocked', { reason: 'the transfer changed after it was authorized' });
  const url = `${task.service.url}/v1/transfers`;
  let state = records.last(op.key)?.state ?? 'authorized';
  let id = [...records.history(op.key)].reverse().find((e) => e.receipt !== undefined)?.receipt;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (state !== 'authorized') {
      // In doubt (a restart, a lost or pending answer): ask by the transfer's id when one is known.
      if (state !== 'reconciling') await record('reconciling');
      if (id !== undefined) {
        const found = await call(`${url}/${encodeURIComponent(id)}`, {});
        if (found.kind === 'committed') return record('succeeded', { receipt: found.id });
        if (found.kind === 'pending') {
          await sleep(500);
          state = 'reconciling';
          continue;
        }
      }
      // Sending again under the key is safe only while the API keeps it and replays it.
      const firstSentAt = records.history(op.key).find((e) => e.state === 'dispatched')?.at;
      if (!task.service.idempotentReplay) return record('blocked', { reason: 'the service does not replay a key: a send again could transfer twice; check by hand' });
      if (firstSentAt !== undefined && Date.now() - firstSentAt >= KEY_LIFETIME_MS) return record('blocked', { reason: 'the idempotency key has expired since the first send: a send again could transfer twice; check by hand' });
    }
    const next = [...records.history(op.key)].reverse().find((e) => e.nextAttemptAtMs !== undefined)?.nextAttemptAtMs;
    if (next !== undefined && next > Date.now()) await sleep(next - Date.now());
    await record('dispatched', { at: Date.now() });
    const answer = await call(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body });
    if (answer.kind === 'committed') return record('succeeded', { receipt: answer.id });
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
  name: 'ietf-worker-ignores-mismatch',
  async run(env, task) {
    if (!(await takeLease(LOCK, env.pid))) return;
    const records = new Records(LOG);
    await records.open();
    for (const op of task.operations) {
      if (records.paused()) break; // a 403 paused the task, until a human resumes it
      if (op.kind === 'publish') await transfer(op, records, task);
    }
    await records.close();
    await releaseLease(LOCK);
  },
  inspect(disk: DiskView): JournalRecords {
    return inspectRecords(disk.readFile(LOG));
  },
};
export default journal;
