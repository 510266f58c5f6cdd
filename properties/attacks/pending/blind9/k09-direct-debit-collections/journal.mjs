/**
 * k09 — direct-debit collections through a GoCardless-style API (better-sqlite3).
 *
 * A membership business collects its monthly payments against its customers' mandates. Each
 * collection of the task is POSTed to `${url}/payments` (`{ "payments": { amount, currency,
 * charge_date, reference, links: { mandate } } }`) with an `Idempotency-Key` header (the operation's
 * key). As GoCardless does, the API keeps keys, and answers a request whose key already created a
 * payment NOT with a replay but with 409 `invalid_state` / `idempotent_creation_conflict`, naming
 * the payment the key created (`links.conflicting_resource_id`); 409 `request_in_progress` while a
 * request with the key is still being processed. Payments can be fetched by id and listed by mandate.
 *
 * Records: one row per collection in collections.db (rollback journal, synchronous=EXTRA; one
 * statement per state change, durable before the step it announces):
 *
 *   planned → submitting → confirmed | failed | on_hold
 *                        → unclear | throttled → reconciling → confirmed | submitting again | on_hold
 *
 * - `planned` keeps the body every send sends, and its digest (SHA-256 of the canonical JSON).
 * - Whenever a collection is in doubt (restart, time-out, 500, answer it cannot verify, pending)
 *   the worker reconciles by listing the mandate's payments: one that matches the recorded payment
 *   (amount, currency, charge date, reference, mandate) with an id is confirmed; a list it cannot
 *   read is asked again later; a well-formed list without it is sent again under the same key with
 *   the recorded body (the API keeps keys; only when it promises replay, else on_hold).
 * - 503: throttled with the Retry-After time, kept across restarts. 400: failed. 403: on_hold, and the
 *   run stops.
 *
 * DEFECT: on 409 `idempotent_creation_conflict` it does what the client library does: it fetches the
 * conflicting payment (by the id in the error, else the newest under the mandate) and returns it as
 * the payment created — without comparing it with the payment it asked for. That is right when the
 * conflict is a repeat of its own request (this API answers such a repeat with the conflict) and wrong
 * when the key already holds ANOTHER payment (another writer's, or a changed one): the collection is
 * recorded `confirmed` with the id of a payment of another amount or date.
 *
 * Citation: gocardless/gocardless-pro-ruby#39 ("When creating a new payment with a conflicting
 * Idempotency-Key, library returns the existing one … always return some object and result with
 * success: true").
 * Fault that shows it: ONE `intent` fault in which another writer already registered the changed
 * payment under the key (a kill after the collection is planned and before its request committed; the
 * restarted worker sends its recorded body, meets the conflict, adopts the other payment).
 * Expected: truthful-outcome (confirmed while the service holds another intent under the key),
 * possibly recorded-intent-wins. `npx durasim check`: exit 1.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'collections.db';
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 30;
const FINAL = new Set(['confirmed', 'failed', 'on_hold']);
const CREATED = 'pending_submission';

const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';
const digestOf = (body) => createHash('sha256').update(canonical(JSON.parse(body))).digest('hex');

function openDb() {
  const db = new Database(DB);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = EXTRA');
  db.exec(`CREATE TABLE IF NOT EXISTS collections (
    key TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL, digest TEXT NOT NULL,
    not_before INTEGER, payment_id TEXT, stop_all INTEGER NOT NULL DEFAULT 0, note TEXT)`);
  db.exec('CREATE TABLE IF NOT EXISTS collection_lock (name TEXT PRIMARY KEY, worker INTEGER NOT NULL)');
  return db;
}

async function takeLock(db, me) {
  const take = db.transaction(() => {
    const row = db.prepare("SELECT worker FROM collection_lock WHERE name = 'collection-run'").get();
    if (row !== undefined) return row.worker === me;
    db.prepare("INSERT INTO collection_lock (name, worker) VALUES ('collection-run', ?)").run(me);
    return true;
  });
  for (let i = 0; i < 600; i++) {
    if (take.immediate()) return true;
    await sleep(200);
  }
  return false;
}

async function api(url, init = {}) {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { res, json: await res.json().catch(() => null) };
  } catch (error) {
    return { error: `no answer (${error?.name})` };
  }
}

function failure(res) {
  if (res.status === 400) return { kind: 'failed' };
  if (res.status === 403) return { kind: 'forbidden' };
  if (res.status === 503 || res.status === 429) {
    const s = Number(res.headers.get('retry-after'));
    return { kind: 'throttled', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown', why: `HTTP ${res.status}` };
}

/** The payment is the one we asked for: same amount, currency, charge date, reference and mandate. */
const isOurs = (p, asked) => p !== null && typeof p === 'object'
  && ['amount', 'currency', 'charge_date', 'reference'].every((f) => canonical(p[f] ?? null) === canonical(asked[f] ?? null))
  && p.links?.mandate === asked.links?.mandate;
const usable = (p) => p !== null && typeof p === 'object' && typeof p.id === 'string' && p.id !== '' && p.status === CREATED;

async function createPayment(base, body, key, asked) {
  const { res, json, error } = await api(base, { method: 'POST', headers: { 'Idempotency-Key': key, 'content-type': 'application/json' }, body });
  if (error) return { kind: 'unknown', why: error };
  if (res.status === 201 || res.status === 200) {
    if (!isOurs(json, asked)) return { kind: 'unknown', why: 'not this payment' };
    return usable(json) ? { kind: 'confirmed', id: json.id } : { kind: 'unknown', why: `payment status ${JSON.stringify(json.status)}` };
  }
  if (res.status === 202) return { kind: 'pending' };
  if (res.status === 409) {
    const detail = json?.error?.errors?.[0];
    if (detail?.reason === 'idempotent_creation_conflict') {
      const id = detail.links?.conflicting_resource_id;
      return { kind: 'creation_conflict', id: typeof id === 'string' && id !== '' ? id : undefined };
    }
    if (detail?.reason === 'request_in_progress') return { kind: 'pending' };
    return { kind: 'unknown', why: 'a 409 it does not know' };
  }
  return failure(res);
}

/**
 * An idempotent creation conflict means the key already created the payment: fetch it and carry on
 * with it, as the client library does (by the id the error names, else the mandate's newest payment).
 */
async function fetchConflicting(base, conflict, asked) {
  if (conflict.id !== undefined) {
    const { res, json, error } = await api(`${base}/${encodeURIComponent(conflict.id)}`);
    if (error) return { kind: 'unknown', why: error };
    if (res.status !== 200) return failure(res);
    return usable(json) ? { kind: 'confirmed', id: json.id } : { kind: 'unknown', why: 'the conflicting payment is not readable' };
  }
  const { res, json, error } = await api(`${base}?mandate=${encodeURIComponent(asked.links?.mandate ?? '')}`);
  if (error) return { kind: 'unknown', why: error };
  if (res.status !== 200) return failure(res);
  const newest = Array.isArray(json?.payments) ? json.payments.filter(usable).at(-1) : undefined;
  return newest ? { kind: 'confirmed', id: newest.id } : { kind: 'unknown', why: 'no payment under the mandate yet' };
}

/** Reconciliation: the mandate's payments, and ours among them. */
async function findOurs(base, asked) {
  const { res, json, error } = await api(`${base}?mandate=${encodeURIComponent(asked.links?.mandate ?? '')}`);
  if (error) return { kind: 'unknown', why: error };
  if (res.status !== 200) return failure(res);
  if (!Array.isArray(json?.payments)) return { kind: 'unknown', why: 'a list it cannot read' };
  const ours = json.payments.filter((p) => isOurs(p, asked));
  const done = ours.find(usable);
  if (done) return { kind: 'confirmed', id: done.id };
  if (ours.length > 0) return { kind: 'pending' };
  return { kind: 'absent' };
}

async function collect(db, op, task) {
  const base = `${task.service.url}/payments`;
  const get = () => db.prepare('SELECT * FROM collections WHERE key = ?').get(op.key);
  const set = (fields) => {
    const cols = Object.keys(fields);
    db.prepare(`UPDATE collections SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE key = @key`).run({ ...fields, key: op.key });
  };
  let row = get();
  if (row && FINAL.has(row.state)) return;
  if (row === undefined) {
    const body = JSON.stringify(JSON.parse(op.body));
    db.prepare("INSERT INTO collections (key, state, body, digest) VALUES (?, 'planned', ?, ?)").run(op.key, body, digestOf(body));
    row = get();
  }
  const asked = JSON.parse(row.body).payments ?? {};
  for (let round = 0; round < MAX_ROUNDS; round++) {
    row = get();
    const backoff = Math.min(1000 * 2 ** round, 8000);
    if (row.state !== 'planned') {
      if (row.state !== 'reconciling') set({ state: 'reconciling' });
      if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
      const found = await findOurs(base, asked);
      if (found.kind === 'confirmed') return set({ state: 'confirmed', payment_id: found.id });
      if (found.kind === 'forbidden') return set({ state: 'on_hold', stop_all: 1, note: 'forbidden (403)' });
      if (found.kind === 'failed') throw new Error(`listing the mandate's payments was refused (400) for ${op.key}`);
      if (found.kind === 'throttled') { set({ state: 'throttled', not_before: Date.now() + found.ms }); continue; }
      if (found.kind !== 'absent') { set({ state: 'unclear', note: found.why ?? 'pending' }); await sleep(backoff); continue; }
      if (!task.service.idempotentReplay) return set({ state: 'on_hold', note: 'the API does not promise replay: a send again could collect twice' });
    }
    set({ state: 'submitting', not_before: null });
    let answer = await createPayment(base, row.body, op.key, asked);
    if (answer.kind === 'creation_conflict') answer = await fetchConflicting(base, answer, asked);
    if (answer.kind === 'confirmed') return set({ state: 'confirmed', payment_id: answer.id });
    if (answer.kind === 'failed') return set({ state: 'failed', note: 'invalid request (400)' });
    if (answer.kind === 'forbidden') return set({ state: 'on_hold', stop_all: 1, note: 'forbidden (403)' });
    if (answer.kind === 'throttled') {
      set({ state: 'throttled', not_before: Date.now() + answer.ms + Math.floor((Math.random() * answer.ms) / 4) });
    } else {
      set({ state: 'unclear', note: answer.why ?? 'pending' });
      await sleep(backoff);
    }
  }
  if (get().state !== 'reconciling') set({ state: 'reconciling' });
  set({ state: 'on_hold', note: `no verdict after ${MAX_ROUNDS} rounds` });
}

export async function runCollection(task, workerSlot) {
  const db = openDb();
  if (!(await takeLock(db, workerSlot))) return db.close();
  for (const op of task.operations) {
    if (db.prepare('SELECT 1 FROM collections WHERE stop_all = 1').get() !== undefined) break;
    if (op.kind === 'publish') await collect(db, op, task);
  }
  db.prepare("DELETE FROM collection_lock WHERE name = 'collection-run' AND worker = ?").run(workerSlot);
  db.close();
}

export default {
  name: 'blind9-k09-direct-debit-collections',
  run: (env, task) => runCollection(task, env.pid),
  inspect(disk) {
    const records = {};
    if (disk.readFile(DB) === undefined) return records;
    const db = new Database(DB, { readonly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'collections'").get() === undefined) return records;
      for (const r of db.prepare('SELECT key, state, digest, payment_id FROM collections').all()) {
        records[r.key] = { kind: 'operation', state: r.state, digest: r.digest, ...(r.state === 'confirmed' && r.payment_id ? { receipt: r.payment_id } : {}) };
      }
    } finally {
      db.close();
    }
    return records;
  },
  states: {
    planned: 'authorized', submitting: 'dispatched', unclear: 'outcome_unknown', throttled: { refines: 'outcome_unknown' },
    reconciling: 'reconciling', confirmed: 'succeeded', failed: 'failed', on_hold: 'blocked',
  },
};
