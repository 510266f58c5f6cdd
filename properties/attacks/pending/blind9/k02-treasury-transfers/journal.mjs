/**
 * k02 — treasury transfers: re-send under the same key and body, and verify the replay (better-sqlite3).
 *
 * The treasury team's sweep worker. Each transfer of the task is POSTed to `${url}/transfers` with an
 * `Idempotency-Key` header (the operation's key). The API follows the IETF Idempotency-Key draft: it
 * keeps a key 24 hours, answers a repeat of the same key and payload with the first answer (201,
 * `Idempotent-Replayed: true`), 409 while a request with the key is still being processed, 422 when
 * the key was used with another payload, and echoes in every transfer object the key and the fields
 * it was created from. A transfer can be fetched by its id only.
 *
 * Records: one row per transfer in transfers.db (rollback journal, synchronous=EXTRA: every UPDATE
 * is durable when it returns, so each state is on disk before the step it announces):
 *
 *   pending → sending → posted | rejected | key_conflict | on_hold
 *                     → no_answer | retry_wait → checking → sending again | posted | on_hold
 *
 * - `pending` holds the body exactly as every send will send it, and its digest (SHA-256 of the
 *   canonical JSON: what the API fingerprints).
 * - In doubt (a restart found it in flight, a time-out, a 500, an answer it cannot verify, a 409 in
 *   progress, a pending transfer) it is `checking`: fetched by id when a pending answer gave one,
 *   else sent AGAIN under the SAME key with the SAME recorded body — what the draft and Stripe say a
 *   client may do — but only while the API promises replay and less than 24 h after the first send;
 *   else `on_hold` for a human.
 * - An answer counts only if it proves this intent: the key it echoes is ours, amount, currency,
 *   destination and reference are the recorded ones, status `posted`, an id.
 * - 503: the Retry-After wait is stored with `retry_wait` and kept before any next send, across
 *   restarts. 400: rejected (never retried). 403: on_hold, and the whole batch pauses.
 * - A transfer recorded but never sent whose task changed meanwhile is held for review.
 * - One worker at a time: a lock row names the worker slot; a restarted worker takes its own back.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'transfers.db';
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 12;
const FINAL = new Set(['posted', 'rejected', 'key_conflict', 'on_hold']);

const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';
const digestOf = (body) => createHash('sha256').update(canonical(JSON.parse(body))).digest('hex');

function openDb() {
  const db = new Database(DB);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = EXTRA');
  db.exec(`CREATE TABLE IF NOT EXISTS transfers (
    key TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL, digest TEXT NOT NULL,
    first_sent_at INTEGER, not_before INTEGER, pending_id TEXT, transfer_id TEXT,
    paused INTEGER NOT NULL DEFAULT 0, note TEXT)`);
  db.exec('CREATE TABLE IF NOT EXISTS worker_lock (name TEXT PRIMARY KEY, owner INTEGER NOT NULL)');
  return db;
}

async function takeLock(db, me) {
  const take = db.transaction(() => {
    const row = db.prepare("SELECT owner FROM worker_lock WHERE name = 'sweep'").get();
    if (row !== undefined) return row.owner === me;
    db.prepare("INSERT INTO worker_lock (name, owner) VALUES ('sweep', ?)").run(me);
    return true;
  });
  for (let i = 0; i < 600; i++) {
    if (take.immediate()) return true;
    await sleep(200);
  }
  return false;
}

/** What a transfer object (created, replayed or fetched) says about OUR transfer. */
function transferAnswer(json, key, sent) {
  if (json === null || typeof json !== 'object') return { kind: 'unknown', why: 'no transfer in the answer' };
  const ours = json.idempotency_key === key && ['amount', 'currency', 'destination', 'reference'].every((f) => canonical(json[f] ?? null) === canonical(sent[f] ?? null));
  if (!ours) return { kind: 'unknown', why: 'the transfer in the answer is not this one' };
  const id = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
  if (json.status === 'posted' && id !== undefined) return { kind: 'posted', id };
  if (json.status === 'processing') return { kind: 'pending', id };
  return { kind: 'unknown', why: `status ${JSON.stringify(json.status)}` };
}

async function call(url, init, key, sent) {
  let response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    return { kind: 'unknown', why: `no answer (${error?.name})` };
  }
  const json = await response.json().catch(() => null);
  const problem = typeof json?.type === 'string' ? json.type : '';
  if (response.status === 200 || response.status === 201) return transferAnswer(json, key, sent);
  if (response.status === 202) return { kind: 'pending', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined };
  if (response.status === 409 && problem.endsWith('/request-in-progress')) return { kind: 'pending' };
  if (response.status === 422) return { kind: 'key_conflict' };
  if (response.status === 400) return { kind: 'rejected' };
  if (response.status === 403) return { kind: 'paused' };
  if (response.status === 503) {
    const s = Number(response.headers.get('retry-after'));
    return { kind: 'wait', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown', why: `status ${response.status}` };
}

async function sweepOne(db, op, task) {
  const url = `${task.service.url}/transfers`;
  const get = () => db.prepare('SELECT * FROM transfers WHERE key = ?').get(op.key);
  const set = (fields) => {
    const names = Object.keys(fields);
    db.prepare(`UPDATE transfers SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE key = @key`).run({ ...fields, key: op.key });
  };
  let row = get();
  if (row && FINAL.has(row.state)) return;
  if (row === undefined) {
    const body = JSON.stringify(JSON.parse(op.body));
    db.prepare("INSERT INTO transfers (key, state, body, digest) VALUES (?, 'pending', ?, ?)").run(op.key, body, digestOf(body));
    row = get();
  } else if (row.state === 'pending' && canonical(JSON.parse(op.body)) !== canonical(JSON.parse(row.body))) {
    return set({ state: 'on_hold', note: 'the transfer changed after it was recorded and before it was sent' });
  }
  const sent = JSON.parse(row.body);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    row = get();
    if (row.state !== 'pending') {
      // In doubt: nothing is sent before the last look at the clock below.
      if (row.state !== 'checking') set({ state: 'checking' });
      if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
      if (row.pending_id !== null) {
        const found = await call(`${url}/${encodeURIComponent(row.pending_id)}`, {}, op.key, sent);
        if (found.kind === 'posted') return set({ state: 'posted', transfer_id: found.id });
        if (found.kind === 'paused') return set({ state: 'on_hold', paused: 1, note: 'forbidden (403)' });
        if (found.kind === 'rejected') throw new Error(`the transfer lookup was refused (400) for ${op.key}`);
        if (found.kind === 'wait') { set({ state: 'retry_wait', not_before: Date.now() + found.ms }); continue; }
        if (found.kind === 'pending') { set({ state: 'no_answer' }); await sleep(Math.min(1000 * 2 ** round, 8000)); continue; }
      }
      if (!task.service.idempotentReplay) return set({ state: 'on_hold', note: 'the API does not replay a key: a send again could transfer twice' });
      if (row.first_sent_at !== null && Date.now() - row.first_sent_at >= KEY_LIFETIME_MS) {
        return set({ state: 'on_hold', note: 'the idempotency key may have expired since the first send' });
      }
    }
    set({ state: 'sending', first_sent_at: row.first_sent_at ?? Date.now(), not_before: null });
    const answer = await call(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body: row.body }, op.key, sent);
    if (answer.kind === 'posted') return set({ state: 'posted', transfer_id: answer.id });
    if (answer.kind === 'key_conflict') return set({ state: 'key_conflict', note: 'the key holds another payload' });
    if (answer.kind === 'rejected') return set({ state: 'rejected', note: 'invalid request (400)' });
    if (answer.kind === 'paused') return set({ state: 'on_hold', paused: 1, note: 'forbidden (403)' });
    if (answer.kind === 'wait') {
      set({ state: 'retry_wait', not_before: Date.now() + answer.ms + Math.floor((Math.random() * answer.ms) / 4) });
    } else if (answer.kind === 'pending') {
      set({ state: 'no_answer', pending_id: answer.id ?? row.pending_id });
      await sleep(Math.min(1000 * 2 ** round, 8000));
    } else {
      set({ state: 'no_answer', note: answer.why });
      await sleep(500 * (round + 1));
    }
  }
  if (get().state !== 'checking') set({ state: 'checking' });
  set({ state: 'on_hold', note: `no verdict after ${MAX_ROUNDS} rounds` });
}

export async function runSweep(task, workerId) {
  const db = openDb();
  if (!(await takeLock(db, workerId))) return db.close();
  for (const op of task.operations) {
    if (db.prepare('SELECT 1 FROM transfers WHERE paused = 1').get() !== undefined) break;
    if (op.kind === 'publish') await sweepOne(db, op, task);
  }
  db.prepare("DELETE FROM worker_lock WHERE name = 'sweep' AND owner = ?").run(workerId);
  db.close();
}

export default {
  name: 'blind9-k02-treasury-transfers',
  run: (env, task) => runSweep(task, env.pid),
  inspect(disk) {
    const records = {};
    if (disk.readFile(DB) === undefined) return records;
    const db = new Database(DB, { readonly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'transfers'").get() === undefined) return records;
      for (const r of db.prepare('SELECT key, state, digest, transfer_id FROM transfers').all()) {
        records[r.key] = { kind: 'operation', state: r.state, digest: r.digest, ...(r.state === 'posted' && r.transfer_id ? { receipt: r.transfer_id } : {}) };
      }
    } finally {
      db.close();
    }
    return records;
  },
  states: {
    pending: 'authorized', sending: 'dispatched', no_answer: 'outcome_unknown', retry_wait: { refines: 'outcome_unknown' },
    checking: 'reconciling', posted: 'succeeded', rejected: 'failed', key_conflict: 'conflict', on_hold: 'blocked',
  },
};
