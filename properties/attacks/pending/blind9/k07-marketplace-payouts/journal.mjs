/**
 * k07 — marketplace seller payouts through a payments API (Stripe's way), better-sqlite3.
 *
 * The settlement worker of a marketplace. Each payout of the task is POSTed to `${url}/v1/payouts`
 * with an `Idempotency-Key` header (the operation's key). The API keeps a key 24 hours and answers a
 * repeat of the key and payload with the same payout (`Idempotent-Replayed: true`), 409
 * `request_in_progress` while a request with the key is being processed, 400 `idempotency_error`
 * for the key with other parameters. A payout can be fetched by its id only.
 *
 * Records: one row per payout in settlement.db (rollback journal, synchronous=EXTRA; every state
 * change one autocommit statement, durable before the step it announces):
 *
 *   queued → submitting → paid | rejected | duplicate | held
 *                       → unsettled | throttled → checking → submitting again | paid | held
 *
 * - A payout is paid only from a payout object echoing the amount, currency and metadata sent, with
 *   an id and status `paid`. A lost answer, a 500, a cut body, a 409 in progress, a pending payout:
 *   `unsettled`, then fetched by id (if an answer gave one) or sent again under the same key with the
 *   recorded body — while the key lives and the API replays; else held.
 * - 503: throttled with the Retry-After time, kept across restarts. 400: rejected. 403: held, and the
 *   run stops. 400 idempotency_error: duplicate.
 *
 * DEFECT: the start-up recovery trusts the idempotency promise instead of asking. A payout it finds
 * `submitting` — the previous process died between recording the send and recording the answer —
 * whose first send is less than 24 h old is recorded `paid` at once, with `idem:<key>` as its payout
 * reference ("the API dedupes on our key for 24 h, so the payout exists exactly once under it; the
 * nightly export matches payouts by idempotency key"). The promise makes a SECOND send safe; it says
 * nothing about whether the first left the process, reached the API or committed. A crash before the
 * POST (or after a 500 before the commit) leaves a payout recorded paid that never happened, and in
 * every case the recorded receipt is one the API never gave.
 *
 * Citation: no specific bug report found; the pattern is reading idempotency as exactly-once
 * delivery. The IETF Idempotency-Key draft and Stripe's "Idempotent requests" both have the client
 * learn the outcome by repeating the request; currents-dev/currents-mcp#163 is the mirror error.
 * Fault that shows it: ONE — a kill (or machine crash) after a payout's `submitting` row is durable,
 * before or after its POST. Expected: truthful-outcome. `npx durasim check`: exit 1.
 */
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'settlement.db';
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 12;
const FINAL = new Set(['paid', 'rejected', 'duplicate', 'held']);

const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';

function openDb() {
  const db = new Database(DB);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = EXTRA');
  db.exec(`CREATE TABLE IF NOT EXISTS payouts (
    id TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL, first_sent_at INTEGER, not_before INTEGER,
    pending_payout TEXT, payout_ref TEXT, stop_run INTEGER NOT NULL DEFAULT 0, note TEXT)`);
  db.exec('CREATE TABLE IF NOT EXISTS settlement_lock (name TEXT PRIMARY KEY, worker INTEGER NOT NULL)');
  return db;
}

async function takeLock(db, me) {
  const take = db.transaction(() => {
    const row = db.prepare("SELECT worker FROM settlement_lock WHERE name = 'run'").get();
    if (row !== undefined) return row.worker === me;
    db.prepare("INSERT INTO settlement_lock (name, worker) VALUES ('run', ?)").run(me);
    return true;
  });
  for (let i = 0; i < 600; i++) {
    if (take.immediate()) return true;
    await sleep(200);
  }
  return false;
}

const update = (db, id, fields) => {
  const cols = Object.keys(fields);
  db.prepare(`UPDATE payouts SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
};

/** Payouts a dead process left between "submitting" and the answer. */
function recoverInterrupted(db) {
  for (const row of db.prepare("SELECT id, first_sent_at FROM payouts WHERE state = 'submitting'").all()) {
    update(db, row.id, { state: 'recovering' });
    // Within the key's 24 h the API guarantees this key maps to exactly one payout: it exists.
    if (row.first_sent_at !== null && Date.now() - row.first_sent_at < KEY_LIFETIME_MS) {
      update(db, row.id, { state: 'paid', payout_ref: `idem:${row.id}`, note: 'settled on restart: the payout id comes with the nightly export' });
    }
  }
}

function payoutAnswer(json, sent) {
  const ours = json !== null && typeof json === 'object' && json.object === 'payout'
    && ['amount', 'currency', 'metadata'].every((f) => canonical(json[f] ?? null) === canonical(sent[f] ?? null));
  if (!ours) return { kind: 'unknown', why: 'not this payout' };
  const id = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
  if (json.status === 'paid' && id !== undefined) return { kind: 'paid', id };
  if (json.status === 'pending') return { kind: 'pending', id };
  return { kind: 'unknown', why: `payout status ${JSON.stringify(json.status)}` };
}

async function payments(url, init, sent) {
  let res;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    return { kind: 'unknown', why: `no answer (${e?.name})` };
  }
  const json = await res.json().catch(() => null);
  if (res.status === 200) return payoutAnswer(json, sent);
  if (res.status === 202) return { kind: 'pending', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined };
  if (res.status === 409 && json?.error?.code === 'request_in_progress') return { kind: 'pending' };
  if (res.status === 400 && json?.error?.type === 'idempotency_error') return { kind: 'duplicate' };
  if (res.status === 400) return { kind: 'rejected' };
  if (res.status === 403) return { kind: 'forbidden' };
  if (res.status === 503 || res.status === 429) {
    const s = Number(res.headers.get('retry-after'));
    return { kind: 'throttled', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown', why: `HTTP ${res.status}` };
}

async function settle(db, op, task) {
  const url = `${task.service.url}/v1/payouts`;
  const get = () => db.prepare('SELECT * FROM payouts WHERE id = ?').get(op.key);
  const set = (fields) => update(db, op.key, fields);
  let row = get();
  if (row && FINAL.has(row.state)) return;
  if (row === undefined) {
    db.prepare("INSERT INTO payouts (id, state, body) VALUES (?, 'queued', ?)").run(op.key, JSON.stringify(JSON.parse(op.body)));
    row = get();
  } else if (row.state === 'queued' && canonical(JSON.parse(op.body)) !== canonical(JSON.parse(row.body))) {
    return set({ state: 'held', note: 'the payout changed before it was sent' });
  }
  const sent = JSON.parse(row.body);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    row = get();
    const backoff = Math.min(1000 * 2 ** round, 8000);
    if (row.state !== 'queued') {
      if (row.state !== 'checking') set({ state: 'checking' });
      if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
      if (row.pending_payout !== null) {
        const seen = await payments(`${url}/${encodeURIComponent(row.pending_payout)}`, {}, sent);
        if (seen.kind === 'paid') return set({ state: 'paid', payout_ref: seen.id });
        if (seen.kind === 'forbidden') return set({ state: 'held', stop_run: 1, note: 'permission refused (403)' });
        if (seen.kind === 'rejected' || seen.kind === 'duplicate') throw new Error(`payout lookup refused (400) for ${op.key}`);
        if (seen.kind === 'throttled') { set({ state: 'throttled', not_before: Date.now() + seen.ms }); continue; }
        if (seen.kind === 'pending') { set({ state: 'unsettled' }); await sleep(backoff); continue; }
      }
      if (!task.service.idempotentReplay) return set({ state: 'held', note: 'the API does not replay keys: a send again could pay twice' });
      if (row.first_sent_at !== null && Date.now() - row.first_sent_at >= KEY_LIFETIME_MS) return set({ state: 'held', note: 'the idempotency key may have expired' });
    }
    set({ state: 'submitting', first_sent_at: row.first_sent_at ?? Date.now(), not_before: null });
    const answer = await payments(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body: row.body }, sent);
    if (answer.kind === 'paid') return set({ state: 'paid', payout_ref: answer.id });
    if (answer.kind === 'rejected' || answer.kind === 'duplicate') return set({ state: answer.kind });
    if (answer.kind === 'forbidden') return set({ state: 'held', stop_run: 1, note: 'permission refused (403)' });
    if (answer.kind === 'throttled') {
      set({ state: 'throttled', not_before: Date.now() + answer.ms + Math.floor((Math.random() * answer.ms) / 4) });
    } else if (answer.kind === 'pending') {
      set({ state: 'unsettled', pending_payout: answer.id ?? row.pending_payout });
      await sleep(backoff);
    } else {
      set({ state: 'unsettled', note: answer.why });
      await sleep(500 * (round + 1));
    }
  }
  if (get().state !== 'checking') set({ state: 'checking' });
  set({ state: 'held', note: `no verdict after ${MAX_ROUNDS} rounds` });
}

export async function runSettlement(task, workerSlot) {
  const db = openDb();
  if (!(await takeLock(db, workerSlot))) return db.close();
  recoverInterrupted(db);
  for (const op of task.operations) {
    if (db.prepare('SELECT 1 FROM payouts WHERE stop_run = 1').get() !== undefined) break;
    if (op.kind === 'publish') await settle(db, op, task);
  }
  db.prepare("DELETE FROM settlement_lock WHERE name = 'run' AND worker = ?").run(workerSlot);
  db.close();
}

export default {
  name: 'blind9-k07-marketplace-payouts',
  run: (env, task) => runSettlement(task, env.pid),
  inspect(disk) {
    const records = {};
    if (disk.readFile(DB) === undefined) return records;
    const db = new Database(DB, { readonly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'payouts'").get() === undefined) return records;
      for (const r of db.prepare('SELECT id, state, payout_ref FROM payouts').all()) {
        records[r.id] = { kind: 'operation', state: r.state, ...(r.state === 'paid' && r.payout_ref ? { receipt: r.payout_ref } : {}) };
      }
    } finally {
      db.close();
    }
    return records;
  },
  states: {
    queued: 'authorized', submitting: 'dispatched', unsettled: 'outcome_unknown', throttled: { refines: 'outcome_unknown' },
    checking: 'reconciling', recovering: 'reconciling', paid: 'succeeded', rejected: 'failed', duplicate: 'conflict', held: 'blocked',
  },
};
