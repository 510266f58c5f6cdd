/**
 * j08 — the job table is re-seeded from the task with an upsert that overwrites the recorded intent,
 * and "already exists" is read as done (internal ledger API, key in the path, better-sqlite3).
 *
 * A month-end accrual poster: each entry of the task is POSTed to `${url}/v1/entries/<key>` (the
 * key in the path: 201 `{ id, key, status, account, amount, memo }`, 200 on a replay, 409
 * `entry_exists` when the key holds another body) and can be read back by key
 * (GET /v1/entries/<key>). Records live in SQLite (ledger.db, rollback journal, synchronous=EXTRA,
 * one autocommit statement per state change, durable before the step it announces), each row with
 * the body it posts and that body's digest:
 *
 *   staged → posting → booked | rejected | frozen
 *                    → unclear → verifying → posting again | booked | held
 *
 * An entry in doubt is read back by key before anything is sent again (correct).
 *
 * DEFECT: at every start the worker seeds its table from the task it was handed with
 * `INSERT … ON CONFLICT(key) DO UPDATE SET body = excluded.body, digest = excluded.digest WHERE the
 * entry is not done` — the usual "sync the job table from the input" upsert — so a restart with a
 * changed task overwrites the recorded intent of an entry already in flight. Recovery then reads
 * the entry back, finds one whose body differs from the (overwritten) row, concludes "not ours,
 * not posted yet", posts the new body, gets 409 `entry_exists`, and reads that as "already exists →
 * done" (the AlreadyExists-is-success habit of create calls), recording `booked` with the existing
 * entry's id. The controller is told the new amount was booked; the ledger holds the old one.
 *
 * Citation: no citation (two real-world patterns: upsert-from-input job tables, and treating
 * "already exists" on create as success).
 * Fault that shows it: one `intent` fault as durasim draws it — a kill after the first POST reached
 * the ledger, and a restart with a changed task (in words: a crash after the send plus a changed
 * intent). A changed task after a kill before the send already rewrites the recorded digest.
 * Expected: truthful-outcome (booked while the ledger holds another digest) and/or
 * recorded-intent-wins. `npx durasim check`: exit 1.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'ledger.db';
const DONE = ['booked', 'rejected', 'frozen', 'held'];
const KEY_LIFETIME_MS = 24 * 3600 * 1000;

const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';
const digestOf = (body) => createHash('sha256').update(canonical(JSON.parse(body))).digest('hex');

function openDb() {
  const db = new Database(DB);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = EXTRA');
  db.exec(`CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL, digest TEXT NOT NULL,
    first_sent_at INTEGER, not_before INTEGER, entry_id TEXT)`);
  db.exec('CREATE TABLE IF NOT EXISTS poster_lock (name TEXT PRIMARY KEY, owner INTEGER NOT NULL)');
  return db;
}

async function takeLock(db, me) {
  const take = db.transaction(() => {
    const row = db.prepare("SELECT owner FROM poster_lock WHERE name = 'accruals'").get();
    if (row !== undefined && row.owner !== me) return false;
    if (row === undefined) db.prepare("INSERT INTO poster_lock (name, owner) VALUES ('accruals', ?)").run(me);
    return true;
  });
  for (let i = 0; i < 600; i++) {
    if (take.immediate()) return true;
    await sleep(250);
  }
  return false;
}

/** The job table follows the task: new entries staged, entries not done yet refreshed to the task's body. */
function seed(db, task) {
  const upsert = db.prepare(`INSERT INTO entries (key, state, body, digest) VALUES (@key, 'staged', @body, @digest)
    ON CONFLICT(key) DO UPDATE SET body = excluded.body, digest = excluded.digest
    WHERE entries.state NOT IN (${DONE.map((s) => `'${s}'`).join(', ')}) AND entries.digest <> excluded.digest`);
  for (const op of task.operations) if (op.kind === 'publish') upsert.run({ key: op.key, body: op.body, digest: digestOf(op.body) });
}

async function ask(url, init) {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
    return { status: response.status, headers: response.headers, json: await response.json().catch(() => null) };
  } catch {
    return { status: 0, json: null };
  }
}
const sameEntry = (e, sent) => e && typeof e === 'object' && e.account === sent.account && e.amount === sent.amount && e.memo === sent.memo;
const idOf = (e) => (typeof e?.id === 'string' && e.id !== '' ? e.id : undefined);

async function post(db, op, url) {
  const get = () => db.prepare('SELECT * FROM entries WHERE key = ?').get(op.key);
  const set = (fields) => db.prepare(`UPDATE entries SET ${Object.keys(fields).map((k) => `${k} = @${k}`).join(', ')} WHERE key = @key`).run({ ...fields, key: op.key });
  let row = get();
  if (!row || DONE.includes(row.state)) return;
  const entryUrl = `${url}/v1/entries/${encodeURIComponent(op.key)}`;
  for (let round = 0; round < 10; round++) {
    row = get();
    const sent = JSON.parse(row.body);
    if (row.state !== 'staged') {
      if (row.state !== 'verifying') set({ state: 'verifying' });
      const found = await ask(entryUrl, {});
      if (found.status === 200 && sameEntry(found.json, sent) && found.json.status === 'posted' && idOf(found.json)) return set({ state: 'booked', entry_id: idOf(found.json) });
      if (found.status === 200 && sameEntry(found.json, sent)) { set({ state: 'unclear' }); await sleep(1000); continue; }
      if (found.status !== 200 && found.status !== 404) { set({ state: 'unclear' }); await sleep(500 * (round + 1)); continue; }
      // 404, or an entry that is not this body: not posted yet — post it.
      if (row.first_sent_at !== null && Date.now() - row.first_sent_at >= KEY_LIFETIME_MS) return set({ state: 'held' });
      if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
    }
    set({ state: 'posting', first_sent_at: row.first_sent_at ?? Date.now(), not_before: null });
    const answer = await ask(entryUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: row.body });
    if ((answer.status === 200 || answer.status === 201) && sameEntry(answer.json, sent) && answer.json.status === 'posted' && idOf(answer.json)) return set({ state: 'booked', entry_id: idOf(answer.json) });
    if (answer.status === 409 && answer.json?.error === 'entry_exists') {
      // Already exists: an earlier attempt got through. Take its id.
      const existing = await ask(entryUrl, {});
      if (existing.status === 200 && idOf(existing.json)) return set({ state: 'booked', entry_id: idOf(existing.json) });
      set({ state: 'unclear' });
      continue;
    }
    if (answer.status === 400) return set({ state: 'rejected' });
    if (answer.status === 403) return set({ state: 'frozen' });
    if (answer.status === 503) {
      const s = Number(answer.headers.get('retry-after'));
      set({ state: 'unclear', not_before: Date.now() + (Number.isFinite(s) && s >= 0 ? s * 1000 : 1000) });
      continue;
    }
    set({ state: 'unclear' });
    await sleep(500 * (round + 1));
  }
  set({ state: 'verifying' });
  set({ state: 'held' });
}

export default {
  name: 'blind8-j08-upsert-refreshes-intent',
  async run(env, task) {
    const db = openDb();
    if (!(await takeLock(db, env.pid))) return;
    seed(db, task);
    for (const op of task.operations) {
      if (db.prepare("SELECT 1 FROM entries WHERE state = 'frozen'").get() !== undefined) break;
      if (op.kind === 'publish') await post(db, op, task.service.url);
    }
    db.prepare("DELETE FROM poster_lock WHERE name = 'accruals' AND owner = ?").run(env.pid);
    db.close();
  },
  inspect(disk) {
    const records = {};
    if (disk.readFile(DB) === undefined) return records;
    const db = new Database(DB, { readonly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'entries'").get() === undefined) return records;
      for (const r of db.prepare('SELECT key, state, digest, entry_id FROM entries').all()) {
        records[r.key] = { kind: 'operation', state: r.state, digest: r.digest, ...(r.state === 'booked' && r.entry_id ? { receipt: r.entry_id } : {}) };
      }
    } finally {
      db.close();
    }
    return records;
  },
  states: {
    staged: 'authorized', posting: 'dispatched', unclear: 'outcome_unknown', verifying: 'reconciling',
    booked: 'succeeded', rejected: 'failed', frozen: 'blocked', held: 'blocked',
  },
};
