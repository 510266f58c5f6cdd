/**
 * DEFECTIVE COPY of journal.ts (examples/contracts): it ignores the mismatch answer. A 400
 * `IdempotentParameterMismatch` (the client token was already used with other parameters) is read
 * as "this launch was made before": it is recorded succeeded, with no instance id, instead of
 * conflict. Expected to be found by truthful-outcome (succeeded, though the service holds another
 * launch under the token, and no receipt) when the token already holds another intent: the intent
 * family, whose new body another writer registered first.
 *
 * An instance launcher written for a cloud API that takes a client token in the request's body
 * (durasim's `client-token` preset: docs/service-contract.md), the way a Node service writes one —
 * node:fs/promises, the global fetch, timers; no durasim API. Each operation of the task launches an
 * instance: its body is the launch's JSON with the operation's key as its `ClientToken`, POSTed to
 * `${task.service.url}/instances`.
 *
 * - Records (durableRecords.ts): authorized (with the body, token included, exactly as every send
 *   sends it) → dispatched (with the time) → succeeded (the instance's id) or conflict, failed,
 *   blocked; a send whose outcome is unknown → outcome_unknown → reconciling → a query or a send again.
 * - An answer is a success only when it is this launch: the `ClientToken` it echoes is the one
 *   sent, an `InstanceId`, `State` running. A `pending` instance is asked about again: by its id
 *   when the answer named one (GET /instances/:id), else by sending again with the same token.
 * - The API's answers: the token already used with other parameters (400
 *   `IdempotentParameterMismatch`) → conflict, never a new token; other 400s → failed; 403 → blocked,
 *   and the task pauses; 503 → the `Retry-After` wait is recorded and kept before the next send,
 *   even after a restart; 500, a lost or cut answer, a time-out → unknown. (This API has no
 *   in-progress answer: a second request with the token waits for the first's, and a launch
 *   accepted but not yet done says `State: pending`.)
 * - A send again with the same token is safe only while the API keeps it (24 hours, its docs say)
 *   and replays it (`task.service.idempotentReplay`): past the token's lifetime since the first
 *   send, or to a service that does not replay, the launch ends blocked for a human to check.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DiskView, JournalAdapter, JournalRecords, PublishOperation, Task } from 'durasim';
import { FINAL, Records, canonical, inspectRecords, releaseLease, takeLease } from '../durableRecords.js';

const LOG = 'launches.jsonl';
const LOCK = 'launches.lock';
/** How long the API keeps a client token after it first saw it (its documentation). */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 2000;
const MAX_ROUNDS = 12;

type Answer =
  | { kind: 'running'; id: string }
  | { kind: 'pending'; id?: string | undefined; reason: string }
  | { kind: 'conflict' | 'failed' | 'paused'; reason: string }
  | { kind: 'unknown'; reason: string; retryAfterMs?: number };

type Instance = { InstanceId?: unknown; ClientToken?: unknown; State?: unknown };

/** What an instance (a launched, replayed or described one) says. */
function instanceAnswer(instance: Instance | null, token: string): Answer {
  if (instance === null || typeof instance !== 'object' || instance.ClientToken !== token) return { kind: 'unknown', reason: 'the answer is not this launch' };
  const id = typeof instance.InstanceId === 'string' && instance.InstanceId !== '' ? instance.InstanceId : undefined;
  if (instance.State === 'running' && id !== undefined) return { kind: 'running', id };
  if (instance.State === 'pending') return { kind: 'pending', id, reason: 'the instance is pending' };
  return { kind: 'unknown', reason: `an instance in state ${JSON.stringify(instance.State)} with id ${JSON.stringify(instance.InstanceId)}` };
}

async function judge(response: Response, token: string): Promise<Answer> {
  const json = (await response.json().catch(() => null)) as (Instance & { __type?: unknown }) | null;
  if (response.status === 200 || response.status === 202) return instanceAnswer(json, token);
  if (response.status === 400 && json?.__type === 'IdempotentParameterMismatch') return { kind: 'running', id: '' }; // the token was used: launched before
  if (response.status === 400) return { kind: 'failed', reason: `a bad request (400, ${String(json?.__type)}): the launch needs fixing` };
  if (response.status === 403) return { kind: 'paused', reason: 'access denied (403): the task pauses' };
  if (response.status === 503) {
    const seconds = Number(response.headers.get('retry-after'));
    return { kind: 'unknown', reason: 'unavailable (503)', retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000 };
  }
  return { kind: 'unknown', reason: `status ${response.status}` };
}

async function call(url: string, init: RequestInit, token: string): Promise<Answer> {
  try {
    return await judge(await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) }), token);
  } catch (error) {
    return { kind: 'unknown', reason: `no answer: ${(error as Error).name}` };
  }
}

async function launch(op: PublishOperation, records: Records, task: Task): Promise<void> {
  const last = records.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const authorized = records.history(op.key).find((e) => e.state === 'authorized');
  const requested = { ClientToken: op.key, ...(JSON.parse(op.body) as Record<string, unknown>) };
  const body = authorized?.body ?? JSON.stringify(requested);
  const record = (state: string, extra: Omit<Parameters<Records['add']>[0], 'key' | 'state'> = {}): Promise<void> => records.add({ key: op.key, state, ...extra });
  if (authorized === undefined) await record('authorized', { body });
  else if (last?.state === 'authorized' && canonical(requested) !== canonical(JSON.parse(body))) return record('blocked', { reason: 'the launch changed after it was authorized' });
  const url = `${task.service.url}/instances`;
  let state = records.last(op.key)?.state ?? 'authorized';
  let id = [...records.history(op.key)].reverse().find((e) => e.receipt !== undefined)?.receipt;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (state !== 'authorized') {
      // In doubt (a restart, a lost or pending answer): ask by the instance's id when one is known.
      if (state !== 'reconciling') await record('reconciling');
      if (id !== undefined) {
        const found = await call(`${url}/${encodeURIComponent(id)}`, {}, op.key);
        if (found.kind === 'running') return record('succeeded', { receipt: found.id });
        if (found.kind === 'pending') {
          await sleep(500);
          state = 'reconciling';
          continue;
        }
      }
      // Sending again with the token is safe only while the API keeps it and replays it.
      const firstSentAt = records.history(op.key).find((e) => e.state === 'dispatched')?.at;
      if (!task.service.idempotentReplay) return record('blocked', { reason: 'the service does not replay a client token: a send again could launch twice; check by hand' });
      if (firstSentAt !== undefined && Date.now() - firstSentAt >= KEY_LIFETIME_MS) return record('blocked', { reason: 'the client token has expired since the first send: a send again could launch twice; check by hand' });
    }
    const next = [...records.history(op.key)].reverse().find((e) => e.nextAttemptAtMs !== undefined)?.nextAttemptAtMs;
    if (next !== undefined && next > Date.now()) await sleep(next - Date.now());
    await record('dispatched', { at: Date.now() });
    const answer = await call(url, { method: 'POST', headers: { 'content-type': 'application/x-amz-json-1.1' }, body }, op.key);
    if (answer.kind === 'running') return record('succeeded', { receipt: answer.id });
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
  name: 'client-token-worker-ignores-mismatch',
  async run(env, task) {
    if (!(await takeLease(LOCK, env.pid))) return;
    const records = new Records(LOG);
    await records.open();
    for (const op of task.operations) {
      if (records.paused()) break; // a 403 paused the task, until a human resumes it
      if (op.kind === 'publish') await launch(op, records, task);
    }
    await records.close();
    await releaseLease(LOCK);
  },
  inspect(disk: DiskView): JournalRecords {
    return inspectRecords(disk.readFile(LOG));
  },
};
export default journal;
