/**
 * k03 — supplier payment orders against a bank API that keeps an idempotency key ONE HOUR (better-sqlite3).
 *
 * Accounts payable's payment-order worker. Each order of the task is POSTed to
 * `${url}/payment-orders` with an `Idempotency-Key` header (the operation's key). The bank follows
 * the IETF Idempotency-Key draft: a repeat of the key with the same payload gets the first answer
 * back (201 `{ id, status }`), 409 while a request with the key is still being processed, 422 for
 * the key with another payload; its docs say a key is kept 60 minutes. An order can be fetched by its
 * id only, so a lost answer can be learned only by sending again under the key.
 *
 * Records: one row per order in orders.db (rollback journal, synchronous=EXTRA, one autocommit
 * statement per state change, so each state is durable before the step it announces):
 *
 *   new → submitting → executed | refused | duplicate_key | manual_review
 *                    → unconfirmed | throttled → reconciling → submitting again | executed | manual_review
 *
 * In doubt it sends again under the same key with the recorded body and accepts only an answer with
 * status `executed` and an id; 503 waits are kept in the row (`not_before`), 400 refuses, 403 stops
 * the run, 422 is a duplicate key for a human.
 *
 * DEFECT: the guard against the key's one-hour lifetime is the retry policy's "max retry time" — a
 * deadline in memory, counted from when THIS run started working on the order (as p-retry's and
 * node-retry's `maxRetryTime` count from the call). Inside one process a wait past the hour is
 * caught and the order goes to manual review; after a restart the deadline starts from zero again, so
 * a worker that was down longer than the key's lifetime re-sends an order whose key the bank has
 * forgotten, and the bank executes it a second time. The first send's time is never kept.
 *
 * Citation: square/connect-api-examples#135 (one idempotency key, two changes: keys expire);
 * triggerdotdev/trigger.dev#4953 (Stripe prunes keys after 24 h; a key reused after that starts a
 * new request, so the deduplication must be kept on the application's side); Check's docs
 * (https://docs.checkhq.com/docs/idempotent-requests: past the key's expiry, check-then-create).
 * Fault that shows it: ONE — a kill after an order's POST reached the bank, the worker back more than
 * an hour later (the single-fault sweep's day-later restart); or the response family's TTL pause
 * followed by a kill. Expected: no-blind-retry (a send once the key's TTL ran out since its first
 * send), one-effect-per-key (the second order). `npx durasim check`: exit 1.
 */
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'orders.db';
/** The bank keeps a key one hour; the retry window stays a minute inside it. */
const MAX_RETRY_TIME_MS = 60 * 60 * 1000 - 60 * 1000;
const REQUEST_TIMEOUT_MS = 4000;
const MAX_ATTEMPTS = 10;
const DONE = new Set(['executed', 'refused', 'duplicate_key', 'manual_review']);

class Orders {
  constructor(file) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = DELETE');
    this.db.pragma('synchronous = EXTRA');
    this.db.exec(`CREATE TABLE IF NOT EXISTS orders (
      id TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL, not_before INTEGER,
      bank_ref TEXT, pending_ref TEXT, stop_all INTEGER NOT NULL DEFAULT 0, detail TEXT)`);
    this.db.exec('CREATE TABLE IF NOT EXISTS run_lock (name TEXT PRIMARY KEY, holder INTEGER NOT NULL)');
  }
  get(id) { return this.db.prepare('SELECT * FROM orders WHERE id = ?').get(id); }
  create(id, body) { this.db.prepare("INSERT INTO orders (id, state, body) VALUES (?, 'new', ?)").run(id, body); }
  update(id, fields) {
    const cols = Object.keys(fields);
    this.db.prepare(`UPDATE orders SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
  }
  stopped() { return this.db.prepare('SELECT 1 FROM orders WHERE stop_all = 1').get() !== undefined; }
  async lock(me) {
    const take = this.db.transaction(() => {
      const row = this.db.prepare("SELECT holder FROM run_lock WHERE name = 'payment-run'").get();
      if (row !== undefined) return row.holder === me;
      this.db.prepare("INSERT INTO run_lock (name, holder) VALUES ('payment-run', ?)").run(me);
      return true;
    });
    for (let i = 0; i < 600; i++) {
      if (take.immediate()) return true;
      await sleep(200);
    }
    return false;
  }
  unlock(me) { this.db.prepare("DELETE FROM run_lock WHERE name = 'payment-run' AND holder = ?").run(me); }
  close() { this.db.close(); }
}

/** The retry policy's window: the time this call is allowed to keep retrying. */
class RetryWindow {
  constructor(maxRetryTimeMs) { this.startedAt = Date.now(); this.maxRetryTimeMs = maxRetryTimeMs; }
  expired() { return Date.now() - this.startedAt >= this.maxRetryTimeMs; }
}

async function bank(url, init) {
  let res;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (e) {
    return { outcome: 'unknown', detail: `no answer (${e?.name})` };
  }
  const json = await res.json().catch(() => null);
  if (res.status === 200 || res.status === 201) {
    const ref = typeof json?.id === 'string' && json.id !== '' ? json.id : undefined;
    if (json?.status === 'executed' && ref !== undefined) return { outcome: 'executed', ref };
    if (json?.status === 'received') return { outcome: 'pending', ref };
    return { outcome: 'unknown', detail: 'an order answer it cannot read' };
  }
  if (res.status === 202) return { outcome: 'pending', ref: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined };
  if (res.status === 409 && String(json?.type ?? '').endsWith('/request-in-progress')) return { outcome: 'pending' };
  if (res.status === 422) return { outcome: 'duplicate_key' };
  if (res.status === 400) return { outcome: 'refused' };
  if (res.status === 403) return { outcome: 'forbidden' };
  if (res.status === 503) {
    const s = Number(res.headers.get('retry-after'));
    return { outcome: 'throttled', waitMs: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { outcome: 'unknown', detail: `HTTP ${res.status}` };
}

async function payOrder(orders, op, task) {
  const base = `${task.service.url}/payment-orders`;
  let row = orders.get(op.key);
  if (row && DONE.has(row.state)) return;
  if (row === undefined) {
    orders.create(op.key, JSON.stringify(JSON.parse(op.body)));
    row = orders.get(op.key);
  } else if (row.state === 'new' && JSON.stringify(JSON.parse(op.body)) !== row.body) {
    return orders.update(op.key, { state: 'manual_review', detail: 'the order changed before it was sent' });
  }
  const window = new RetryWindow(MAX_RETRY_TIME_MS);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    row = orders.get(op.key);
    if (row.state !== 'new') {
      if (row.state !== 'reconciling') orders.update(op.key, { state: 'reconciling' });
      if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
      if (row.pending_ref !== null) {
        const seen = await bank(`${base}/${encodeURIComponent(row.pending_ref)}`, {});
        if (seen.outcome === 'executed') return orders.update(op.key, { state: 'executed', bank_ref: seen.ref });
        if (seen.outcome === 'forbidden') return orders.update(op.key, { state: 'manual_review', stop_all: 1, detail: '403' });
        if (seen.outcome === 'refused') throw new Error(`the bank refused the lookup of ${op.key} (400)`);
        if (seen.outcome === 'throttled') { orders.update(op.key, { state: 'throttled', not_before: Date.now() + seen.waitMs }); continue; }
        if (seen.outcome === 'pending') { orders.update(op.key, { state: 'unconfirmed' }); await sleep(Math.min(1000 * 2 ** attempt, 8000)); continue; }
      }
      if (!task.service.idempotentReplay) return orders.update(op.key, { state: 'manual_review', detail: 'the bank does not replay keys' });
      // The key's lifetime is the retry policy's job: it stops retrying once its window is over.
      if (window.expired()) return orders.update(op.key, { state: 'manual_review', detail: 'retry window over: the key may be gone' });
    }
    orders.update(op.key, { state: 'submitting', not_before: null });
    const answer = await bank(base, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body: row.body });
    if (answer.outcome === 'executed') return orders.update(op.key, { state: 'executed', bank_ref: answer.ref });
    if (answer.outcome === 'refused' || answer.outcome === 'duplicate_key') return orders.update(op.key, { state: answer.outcome });
    if (answer.outcome === 'forbidden') return orders.update(op.key, { state: 'manual_review', stop_all: 1, detail: '403' });
    if (answer.outcome === 'throttled') {
      orders.update(op.key, { state: 'throttled', not_before: Date.now() + answer.waitMs + Math.floor(Math.random() * 250) });
    } else if (answer.outcome === 'pending') {
      orders.update(op.key, { state: 'unconfirmed', pending_ref: answer.ref ?? row.pending_ref });
      await sleep(Math.min(1000 * 2 ** attempt, 8000));
    } else {
      orders.update(op.key, { state: 'unconfirmed', detail: answer.detail });
      await sleep(500 * (attempt + 1));
    }
  }
  if (orders.get(op.key).state !== 'reconciling') orders.update(op.key, { state: 'reconciling' });
  orders.update(op.key, { state: 'manual_review', detail: `no answer after ${MAX_ATTEMPTS} attempts` });
}

export async function runPayments(task, workerSlot) {
  const orders = new Orders(DB);
  if (!(await orders.lock(workerSlot))) return orders.close();
  for (const op of task.operations) {
    if (orders.stopped()) break;
    if (op.kind === 'publish') await payOrder(orders, op, task);
  }
  orders.unlock(workerSlot);
  orders.close();
}

export default {
  name: 'blind9-k03-bank-payment-orders',
  run: (env, task) => runPayments(task, env.pid),
  inspect(disk) {
    const out = {};
    if (disk.readFile(DB) === undefined) return out;
    const db = new Database(DB, { readonly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'orders'").get() === undefined) return out;
      for (const r of db.prepare('SELECT id, state, bank_ref FROM orders').all()) {
        out[r.id] = { kind: 'operation', state: r.state, ...(r.state === 'executed' && r.bank_ref ? { receipt: r.bank_ref } : {}) };
      }
    } finally {
      db.close();
    }
    return out;
  },
  states: {
    new: 'authorized', submitting: 'dispatched', unconfirmed: 'outcome_unknown', throttled: { refines: 'outcome_unknown' },
    reconciling: 'reconciling', executed: 'succeeded', refused: 'failed', duplicate_key: 'conflict', manual_review: 'blocked',
  },
};
