/**
 * j03 — the task lease expires while the worker is still inside its HTTP call (refunds API, better-sqlite3).
 *
 * A refund worker: each refund of the task is POSTed to `${url}/v1/refunds` with an `Idempotency-Key`
 * header; a refund in doubt is looked up by its order (GET /v1/refunds?order=…) before anything is
 * sent again, and sent again under the same key only while the API keeps the key (24 h). Its records
 * live in SQLite (refunds.db, rollback journal, synchronous=EXTRA, one autocommit statement per state):
 *
 *   pending → submitting → refunded | declined | key_reused | on_hold
 *                        → unconfirmed → verifying → submitting again | refunded | on_hold
 *
 * A redelivered task must not run beside the first worker, so the worker takes a lease: a row
 * (`BEGIN IMMEDIATE`) naming its slot, valid for 10 s; a restarted worker takes its own lease back,
 * and another worker waits for the lease to be released — or to expire, so a worker that died for
 * good does not block the batch for ever.
 *
 * DEFECT: the lease is never renewed and never looked at again once taken, and the HTTP client's
 * time-out (30 s) is longer than the lease. A first worker stalled for more than 10 s at a send (a
 * slow answer, a GC pause, a frozen VM) while a second delivery of the task waits loses the lease
 * without knowing: the second worker takes it, finds the refund `submitting`, verifies, finds
 * nothing yet and sends it again — and the first worker goes on sending the rest of the batch too.
 *
 * Citation: BullMQ's stalled jobs (https://docs.bullmq.io/guide/workers/stalled-jobs): a job whose
 * lock was not renewed in time is moved back to wait and processed again, possibly twice; the same
 * lock-expiry takeover exists in graphile-worker and pg-boss. No specific issue number.
 * Faults that show it: TWO — a duplicate delivery while the first worker holds the lease, and the
 * first worker stalled more than 10 s at a send (a `delay` of an answer > 10 s, or a `pause` > 10 s
 * after it recorded `submitting`).
 * Expected: single-flight (two owners sending one key) or completed-replayed (the stalled worker
 * sends after the other recorded `refunded`). `npx durasim check`: exit 1.
 */
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'refunds.db';
const LEASE_MS = 10_000;
const TIMEOUT_MS = 30_000;
const KEY_LIFETIME_MS = 24 * 3600 * 1000;
const FINAL = new Set(['refunded', 'declined', 'key_reused', 'on_hold']);

function openDb() {
  const db = new Database(DB);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = EXTRA');
  db.exec(`CREATE TABLE IF NOT EXISTS refunds (key TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL,
    first_sent_at INTEGER, not_before INTEGER, refund_id TEXT, paused INTEGER NOT NULL DEFAULT 0)`);
  db.exec('CREATE TABLE IF NOT EXISTS lease (name TEXT PRIMARY KEY, owner INTEGER NOT NULL, expires_at INTEGER NOT NULL)');
  return db;
}

async function takeLease(db, me) {
  const attempt = db.transaction(() => {
    const now = Date.now();
    const row = db.prepare("SELECT owner, expires_at FROM lease WHERE name = 'refunds'").get();
    if (row !== undefined && row.owner !== me && row.expires_at > now) return false;
    db.prepare("INSERT INTO lease (name, owner, expires_at) VALUES ('refunds', ?, ?) ON CONFLICT(name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at").run(me, now + LEASE_MS);
    return true;
  });
  for (let i = 0; i < 600; i++) {
    if (attempt.immediate()) return true;
    await sleep(1000);
  }
  return false;
}

const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';
const isThis = (r, sent) => r !== null && typeof r === 'object' && r.object === 'refund' && canonical(r.amount) === canonical(sent.amount)
  && canonical(r.currency) === canonical(sent.currency) && canonical(r.metadata) === canonical(sent.metadata);

async function request(url, init) {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { status: response.status, headers: response.headers, json: await response.json().catch(() => null) };
  } catch (e) {
    return { status: 0, reason: e?.name };
  }
}

function verdictOf(answer, sent) {
  const { status, json } = answer;
  if (status === 200 || status === 202) {
    if (!isThis(json, sent)) return { kind: 'unknown' };
    if (json.status === 'succeeded' && typeof json.id === 'string' && json.id !== '') return { kind: 'refunded', id: json.id };
    return { kind: 'unknown', id: typeof json.id === 'string' && json.id !== '' ? json.id : undefined, pending: true };
  }
  if (status === 409) return { kind: 'unknown', pending: true };
  if (status === 400 && json?.error?.type === 'idempotency_error') return { kind: 'key_reused' };
  if (status === 400) return { kind: 'declined' };
  if (status === 403) return { kind: 'on_hold', paused: true };
  if (status === 503) {
    const s = Number(answer.headers.get('retry-after'));
    return { kind: 'unknown', waitMs: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown' };
}

async function refund(db, op, url) {
  const get = () => db.prepare('SELECT * FROM refunds WHERE key = ?').get(op.key);
  const set = (fields) => db.prepare(`UPDATE refunds SET ${Object.keys(fields).map((k) => `${k} = @${k}`).join(', ')} WHERE key = @key`).run({ ...fields, key: op.key });
  let row = get();
  if (row && FINAL.has(row.state)) return;
  if (!row) db.prepare("INSERT INTO refunds (key, state, body) VALUES (?, 'pending', ?)").run(op.key, op.body);
  row = get();
  const sent = JSON.parse(row.body);
  for (let round = 0; round < 10; round++) {
    row = get();
    if (row.state !== 'pending') {
      if (row.state !== 'verifying') set({ state: 'verifying' });
      const found = await request(`${url}/v1/refunds?order=${encodeURIComponent(sent.metadata?.order ?? '')}`, {});
      const list = found.status === 200 && Array.isArray(found.json?.data) ? found.json.data : undefined;
      const ours = list?.find((r) => isThis(r, sent));
      if (ours && ours.status === 'succeeded' && typeof ours.id === 'string' && ours.id !== '') return set({ state: 'refunded', refund_id: ours.id });
      if (list === undefined || ours !== undefined) { // unreadable, or this refund still pending: ask again later
        set({ state: 'unconfirmed' });
        await sleep(1000);
        continue;
      }
      if (row.first_sent_at !== null && Date.now() - row.first_sent_at >= KEY_LIFETIME_MS) return set({ state: 'on_hold' });
      if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
    }
    set({ state: 'submitting', first_sent_at: row.first_sent_at ?? Date.now() });
    const verdict = verdictOf(await request(`${url}/v1/refunds`, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body: row.body }), sent);
    if (verdict.kind === 'refunded') return set({ state: 'refunded', refund_id: verdict.id });
    if (verdict.kind !== 'unknown') return set({ state: verdict.kind, paused: verdict.paused ? 1 : 0 });
    set({ state: 'unconfirmed', not_before: verdict.waitMs !== undefined ? Date.now() + verdict.waitMs : null });
    if (verdict.waitMs === undefined) await sleep(500 * (round + 1));
  }
  set({ state: 'verifying' });
  set({ state: 'on_hold' });
}

export default {
  name: 'blind8-j03-lease-expires-mid-call',
  async run(env, task) {
    const db = openDb();
    if (!(await takeLease(db, env.pid))) return;
    for (const op of task.operations) {
      if (db.prepare('SELECT 1 FROM refunds WHERE paused = 1').get() !== undefined) break;
      if (op.kind === 'publish') await refund(db, op, task.service.url);
    }
    db.prepare("DELETE FROM lease WHERE name = 'refunds' AND owner = ?").run(env.pid);
    db.close();
  },
  inspect(disk) {
    const records = {};
    if (disk.readFile(DB) === undefined) return records;
    const db = new Database(DB, { readonly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'refunds'").get() === undefined) return records;
      for (const r of db.prepare('SELECT key, state, refund_id FROM refunds').all()) {
        records[r.key] = { kind: 'operation', state: r.state, ...(r.state === 'refunded' && r.refund_id ? { receipt: r.refund_id } : {}) };
      }
    } finally {
      db.close();
    }
    return records;
  },
  states: {
    pending: 'authorized', submitting: 'dispatched', unconfirmed: 'outcome_unknown', verifying: 'reconciling',
    refunded: 'succeeded', declined: 'failed', key_reused: 'conflict', on_hold: 'blocked',
  },
};
