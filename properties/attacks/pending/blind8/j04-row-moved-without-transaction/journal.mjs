/**
 * j04 — a launch's record moved between two tables without a transaction, and a recovery that
 * trusts the "active" table first (EC2-style API, better-sqlite3).
 *
 * A CI runner launcher: each runner of the task is launched by POSTing `${url}/instances` with the
 * runner's key as the body's `ClientToken` (the API's idempotency token; it answers
 * `{ InstanceId, ClientToken, State }`, replays a token it knows, and is queried by InstanceId only).
 * Its records live in SQLite (launches.db, rollback journal, synchronous=EXTRA) the way a job queue
 * keeps an "active" and a "completed" set:
 *
 *   launches:  queued → launching → unconfirmed → describing → launching again | stuck
 *                                 → mismatch | invalid | denied          (terminal, stay in launches)
 *   instances: one row per runner that runs, with its InstanceId       ("running": it wins over launches)
 *
 * Each state change is one autocommit statement, durable before the step it announces; a launch in
 * doubt is described by its InstanceId when one is known, and otherwise sent again with the same
 * token while the API keeps it (24 h).
 *
 * DEFECT: when an answer proves the instance, the row moves from `launches` to `instances` as two
 * autocommit statements — `INSERT INTO instances`, then `DELETE FROM launches` — not one
 * transaction; and a start resumes whatever is still in `launches` before it looks at `instances`
 * (the completed table is looked at only for a runner with no active row). A crash between the two
 * statements leaves the runner in both tables: the restart finds it "launching", takes it for a
 * launch in doubt and POSTs it again, although `running` with its InstanceId was durable (a replay
 * while the API keeps the token; a second instance once the token is forgotten). Correct on the
 * happy path and on every other crash point.
 *
 * Citation: the non-atomic move between an "active" and a "done" list is the failure mode documented
 * for Sidekiq's BasicFetch (https://github.com/sidekiq/sidekiq/wiki/Reliability: a job taken off the
 * queue is lost, or redone, when the process dies in between); the SQLite form here: no citation.
 * Fault that shows it: ONE crash (a kill, or a machine crash) after the INSERT's commit and before
 * the DELETE's commit of any runner.
 * Expected: completed-replayed (a request for a runner after `running` was durable); no-state-skip
 * may follow (states after a terminal one). `npx durasim check`: exit 1.
 */
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'launches.db';
const KEY_LIFETIME_MS = 24 * 3600 * 1000;
const TERMINAL = new Set(['mismatch', 'invalid', 'denied', 'stuck']);

function openDb() {
  const db = new Database(DB);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = EXTRA');
  db.exec(`CREATE TABLE IF NOT EXISTS launches (token TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL,
    first_sent_at INTEGER, not_before INTEGER, instance_id TEXT, paused INTEGER NOT NULL DEFAULT 0)`);
  db.exec('CREATE TABLE IF NOT EXISTS instances (token TEXT PRIMARY KEY, instance_id TEXT NOT NULL)');
  db.exec('CREATE TABLE IF NOT EXISTS launcher_lock (name TEXT PRIMARY KEY, owner INTEGER NOT NULL)');
  return db;
}

async function takeLock(db, me) {
  const take = db.transaction(() => {
    const row = db.prepare("SELECT owner FROM launcher_lock WHERE name = 'pipeline'").get();
    if (row !== undefined && row.owner !== me) return false;
    if (row === undefined) db.prepare("INSERT INTO launcher_lock (name, owner) VALUES ('pipeline', ?)").run(me);
    return true;
  });
  for (let i = 0; i < 600; i++) {
    if (take.immediate()) return true;
    await sleep(250);
  }
  return false;
}

const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';

async function ask(url, init, token) {
  let response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  } catch {
    return { kind: 'unknown' };
  }
  const json = await response.json().catch(() => null);
  if (response.status === 200 && json && typeof json === 'object') {
    if (json.ClientToken !== token) return { kind: 'unknown' };
    const id = typeof json.InstanceId === 'string' && json.InstanceId !== '' ? json.InstanceId : undefined;
    if (json.State === 'running' && id !== undefined) return { kind: 'running', id };
    return { kind: 'unknown', id, pending: true };
  }
  if (response.status === 400 && json?.__type === 'IdempotentParameterMismatch') return { kind: 'mismatch' };
  if (response.status === 400) return { kind: 'invalid' };
  if (response.status === 403) return { kind: 'denied' };
  if (response.status === 503) {
    const s = Number(response.headers.get('retry-after'));
    return { kind: 'unknown', waitMs: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown' };
}

async function launch(db, op, url) {
  const token = op.key;
  const get = () => db.prepare('SELECT * FROM launches WHERE token = ?').get(token);
  const set = (fields) => db.prepare(`UPDATE launches SET ${Object.keys(fields).map((k) => `${k} = @${k}`).join(', ')} WHERE token = @token`).run({ ...fields, token });
  const running = (id) => {
    // Move the runner to the completed set.
    db.prepare('INSERT OR REPLACE INTO instances (token, instance_id) VALUES (?, ?)').run(token, id);
    db.prepare('DELETE FROM launches WHERE token = ?').run(token);
  };
  let row = get();
  if (row && TERMINAL.has(row.state)) return;
  if (!row) {
    if (db.prepare('SELECT 1 FROM instances WHERE token = ?').get(token) !== undefined) return; // already running
    const body = canonical({ ...JSON.parse(op.body), ClientToken: token });
    db.prepare("INSERT INTO launches (token, state, body) VALUES (?, 'queued', ?)").run(token, body);
    row = get();
  }
  for (let round = 0; round < 10; round++) {
    row = get();
    if (row.state !== 'queued') {
      if (row.state !== 'describing') set({ state: 'describing' });
      if (row.instance_id !== null) {
        const found = await ask(`${url}/instances/${encodeURIComponent(row.instance_id)}`, {}, token);
        if (found.kind === 'running') return running(found.id);
        if (found.pending) { await sleep(1000); continue; }
      }
      if (row.first_sent_at !== null && Date.now() - row.first_sent_at >= KEY_LIFETIME_MS) return set({ state: 'stuck' });
      if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
    }
    set({ state: 'launching', first_sent_at: row.first_sent_at ?? Date.now(), not_before: null });
    const answer = await ask(`${url}/instances`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: row.body }, token);
    if (answer.kind === 'running') return running(answer.id);
    if (answer.kind !== 'unknown') return set({ state: answer.kind, paused: answer.kind === 'denied' ? 1 : 0 });
    set({ state: 'unconfirmed', instance_id: answer.id ?? row.instance_id, not_before: answer.waitMs !== undefined ? Date.now() + answer.waitMs : null });
    if (answer.waitMs === undefined) await sleep(500 * (round + 1));
  }
  set({ state: 'describing' });
  set({ state: 'stuck' });
}

export default {
  name: 'blind8-j04-row-moved-without-transaction',
  async run(env, task) {
    const db = openDb();
    if (!(await takeLock(db, env.pid))) return;
    for (const op of task.operations) {
      if (db.prepare('SELECT 1 FROM launches WHERE paused = 1').get() !== undefined) break;
      if (op.kind === 'publish') await launch(db, op, task.service.url);
    }
    db.prepare("DELETE FROM launcher_lock WHERE name = 'pipeline' AND owner = ?").run(env.pid);
    db.close();
  },
  inspect(disk) {
    const records = {};
    if (disk.readFile(DB) === undefined) return records;
    const db = new Database(DB, { readonly: true });
    try {
      const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((t) => t.name));
      if (tables.has('launches')) for (const r of db.prepare('SELECT token, state FROM launches').all()) records[r.token] = { kind: 'operation', state: r.state };
      if (tables.has('instances')) for (const r of db.prepare('SELECT token, instance_id FROM instances').all()) records[r.token] = { kind: 'operation', state: 'running', receipt: r.instance_id };
    } finally {
      db.close();
    }
    return records;
  },
  states: {
    queued: 'authorized', launching: 'dispatched', unconfirmed: 'outcome_unknown', describing: 'reconciling',
    running: 'succeeded', mismatch: 'conflict', invalid: 'failed', denied: 'blocked', stuck: 'blocked',
  },
};
