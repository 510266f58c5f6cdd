/**
 * j01 — fresh Idempotency-Key after a 5xx or a time-out (payments API, better-sqlite3).
 *
 * A payout worker as the payments team runs it: each payout of the task is POSTed to
 * `${url}/v1/payouts` with an `Idempotency-Key` header; its records live in SQLite (payouts.db,
 * rollback journal, synchronous=EXTRA, one autocommit statement per state change, so each state is
 * durable before the step it announces):
 *
 *   queued → submitting → paid | rejected | duplicate | paused
 *                       → unsettled → checking → submitting again | paid | held
 *
 * DEFECT: when the API answers a 5xx, a body the worker cannot read, or nothing (a time-out), the
 * worker retries under a NEW key (`<payout>:retry-<n>`, kept in the row's `idem_key`), because the
 * team read that the API stores the first request's result under a key, 500s included, and took a
 * key whose request errored to be "burnt". A 500, a reset or a lost answer AFTER the API committed
 * the payout therefore pays it twice. (A plain crash is recovered correctly: the restart re-sends
 * under the key stored in the row, which the API replays.)
 *
 * Citation: Stripe documents that idempotent results are saved "regardless of whether it succeeds
 * or fails", 500s included (https://docs.stripe.com/api/idempotent_requests); the new-key-per-retry
 * defect itself: no citation (a real-world pattern).
 * Fault that shows it: one response fault on a payout's first POST — 500-after-commit,
 * drop-after-commit, reset-after-commit, or a garbled body after the commit.
 * Expected: no-blind-retry (a write under a key the task never gave), one-effect-per-key
 * (an effect the journal did not authorize under the task's key). `npx durasim check`: exit 1.
 */
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'payouts.db';
const FINAL = new Set(['paid', 'rejected', 'duplicate', 'paused', 'held']);
const IN_DOUBT = new Set(['submitting', 'unsettled', 'checking']);
const KEY_LIFETIME_MS = 24 * 3600 * 1000;
const TIMEOUT_MS = 5000;
const MAX_ROUNDS = 8;

function openDb() {
  const db = new Database(DB);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = EXTRA');
  db.exec(`CREATE TABLE IF NOT EXISTS payouts (
    id TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL, idem_key TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, first_sent_at INTEGER, not_before INTEGER, payout_id TEXT, reason TEXT)`);
  db.exec('CREATE TABLE IF NOT EXISTS worker_lock (name TEXT PRIMARY KEY, owner INTEGER NOT NULL)');
  return db;
}

/** One worker at a time: a row names the worker slot that holds the batch; a restarted worker takes its own back. */
async function takeLock(db, me) {
  const take = db.transaction(() => {
    const row = db.prepare("SELECT owner FROM worker_lock WHERE name = 'batch'").get();
    if (row !== undefined && row.owner !== me) return false;
    if (row === undefined) db.prepare("INSERT INTO worker_lock (name, owner) VALUES ('batch', ?)").run(me);
    return true;
  });
  for (let i = 0; i < 600; i++) {
    if (take.immediate()) return true;
    await sleep(200);
  }
  return false;
}

const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';

function isThePayout(p, sent) {
  return p !== null && typeof p === 'object' && p.object === 'payout' && canonical(p.amount) === canonical(sent.amount ?? null)
    && canonical(p.currency) === canonical(sent.currency ?? null) && canonical(p.metadata) === canonical(sent.metadata ?? null);
}

async function call(url, init, sent) {
  let response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    return { kind: 'error', reason: `no answer: ${error?.name}` };
  }
  const json = await response.json().catch(() => null);
  if (response.status === 200 || response.status === 202) {
    if (!isThePayout(json, sent)) return { kind: 'error', reason: 'unreadable payout' };
    if (json.status === 'paid' && typeof json.id === 'string' && json.id !== '') return { kind: 'paid', id: json.id };
    return { kind: 'pending', id: typeof json.id === 'string' && json.id !== '' ? json.id : undefined };
  }
  if (response.status === 409 && json?.error?.code === 'request_in_progress') return { kind: 'pending' };
  if (response.status === 400 && json?.error?.type === 'idempotency_error') return { kind: 'duplicate' };
  if (response.status === 400) return { kind: 'rejected' };
  if (response.status === 403) return { kind: 'paused' };
  if (response.status === 503 || response.status === 429) {
    const s = Number(response.headers.get('retry-after'));
    return { kind: 'wait', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'error', reason: `status ${response.status}` };
}

async function payOne(db, op, url) {
  const get = () => db.prepare('SELECT * FROM payouts WHERE id = ?').get(op.key);
  const set = (fields) => {
    const keys = Object.keys(fields);
    db.prepare(`UPDATE payouts SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id: op.key });
  };
  let row = get();
  if (row && FINAL.has(row.state)) return;
  if (!row) {
    db.prepare("INSERT INTO payouts (id, state, body, idem_key) VALUES (?, 'queued', ?, ?)").run(op.key, op.body, op.key);
    row = get();
  }
  const sent = JSON.parse(row.body);
  let paymentId = row.payout_id ?? undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    row = get();
    if (IN_DOUBT.has(row.state)) {
      if (row.state !== 'checking') set({ state: 'checking' });
      if (paymentId !== undefined) {
        const found = await call(`${url}/v1/payouts/${encodeURIComponent(paymentId)}`, {}, sent);
        if (found.kind === 'paid') return set({ state: 'paid', payout_id: found.id });
        if (found.kind === 'pending') { await sleep(500); continue; }
      }
      if (row.first_sent_at !== null && Date.now() - row.first_sent_at >= KEY_LIFETIME_MS) return set({ state: 'held', reason: 'key may be forgotten' });
    }
    if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
    row = get();
    set({ state: 'submitting', attempts: row.attempts + 1, first_sent_at: row.first_sent_at ?? Date.now(), not_before: null });
    const answer = await call(`${url}/v1/payouts`, { method: 'POST', headers: { 'Idempotency-Key': row.idem_key, 'content-type': 'application/json' }, body: row.body }, sent);
    if (answer.kind === 'paid') return set({ state: 'paid', payout_id: answer.id });
    if (answer.kind === 'duplicate' || answer.kind === 'rejected' || answer.kind === 'paused') return set({ state: answer.kind });
    if (answer.kind === 'pending') {
      if (answer.id !== undefined) paymentId = answer.id;
      set({ state: 'unsettled', payout_id: paymentId ?? null });
      await sleep(1000);
    } else if (answer.kind === 'wait') {
      set({ state: 'unsettled', not_before: Date.now() + answer.ms });
    } else {
      // The API keeps the 500 under the key, so a retry with it would only get the 500 back: use a fresh key.
      set({ state: 'unsettled', idem_key: `${op.key}:retry-${row.attempts + 1}`, reason: answer.reason });
      await sleep(500 * (round + 1));
    }
  }
  set({ state: 'checking' });
  set({ state: 'held', reason: `no verdict after ${MAX_ROUNDS} rounds` });
}

export async function runBatch(task, workerId) {
  const db = openDb();
  if (!(await takeLock(db, workerId))) return;
  for (const op of task.operations) {
    if (db.prepare("SELECT 1 FROM payouts WHERE state = 'paused'").get() !== undefined) break;
    if (op.kind === 'publish') await payOne(db, op, task.service.url);
  }
  db.prepare("DELETE FROM worker_lock WHERE name = 'batch' AND owner = ?").run(workerId);
  db.close();
}

export default {
  name: 'blind8-j01-fresh-key-after-500',
  run: (env, task) => runBatch(task, env.pid),
  inspect(disk) {
    const records = {};
    if (disk.readFile(DB) === undefined) return records;
    const db = new Database(DB, { readonly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'payouts'").get() === undefined) return records;
      for (const r of db.prepare('SELECT id, state, payout_id FROM payouts').all()) {
        records[r.id] = { kind: 'operation', state: r.state, ...(r.state === 'paid' && r.payout_id ? { receipt: r.payout_id } : {}) };
      }
    } finally {
      db.close();
    }
    return records;
  },
  states: {
    queued: 'authorized', submitting: 'dispatched', unsettled: 'outcome_unknown', checking: 'reconciling',
    paid: 'succeeded', rejected: 'failed', duplicate: 'conflict', paused: 'blocked', held: 'blocked',
  },
};
