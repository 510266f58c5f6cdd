/**
 * k04 — CI runner launcher on an EC2-style API with client tokens: look first, then launch again
 * under the same token (better-sqlite3).
 *
 * The build team's scale-out worker. Each launch of the task is POSTed to `${url}/instances` with the
 * operation's key as the body's `ClientToken` (AWS's idempotency token): the same token with the same
 * parameters returns the same instance instead of a second one, other parameters are refused with
 * `IdempotentParameterMismatch`, and a token is kept 24 hours. Instances can be described by id and
 * filtered by the client token they were launched with (DescribeInstances' `client-token` filter);
 * an instance echoes its token, image, type and subnet.
 *
 * Records: one row per launch in launches.db (rollback journal, synchronous=EXTRA, one statement per
 * state change, durable before the step it announces):
 *
 *   requested → launching → running | rejected | token_mismatch | needs_human
 *                         → unknown | throttled → describing → running | launching again | needs_human
 *
 * - `requested` keeps the request body, token included, exactly as every launch sends it.
 * - Whenever a launch is in doubt (a restart found it in flight, a time-out, a 500, an answer it
 *   cannot verify, a pending instance) it LOOKS FIRST: describes the instances with its client token.
 *   An instance with its token, its image, type and subnet, running, with an id: recorded running. One
 *   pending: wait and look again. An answer it cannot read: wait and look again (never launch on a
 *   guess). A well-formed list without it (or with another launch under the token): launch again,
 *   same token, same recorded body — only while the token lives (24 h since the first launch) and the
 *   API promises replay; else needs_human.
 * - 400 IdempotentParameterMismatch: token_mismatch. Other 400: rejected. 403: needs_human and the
 *   batch stops. 503: throttled with the Retry-After time, kept across restarts.
 * - A launch recorded but not yet sent whose task changed meanwhile: needs_human.
 * - One worker at a time: a lock row names the worker slot; a restarted worker takes its own back.
 */
import Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';

const DB = 'launches.db';
const TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 30;
const FINAL = new Set(['running', 'rejected', 'token_mismatch', 'needs_human']);
const ECHOED = ['ImageId', 'InstanceType', 'SubnetId'];

const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';

function openDb() {
  const db = new Database(DB);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = EXTRA');
  db.exec(`CREATE TABLE IF NOT EXISTS launches (
    token TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL, first_sent_at INTEGER,
    not_before INTEGER, instance_id TEXT, paused INTEGER NOT NULL DEFAULT 0, note TEXT)`);
  db.exec('CREATE TABLE IF NOT EXISTS launcher_lock (name TEXT PRIMARY KEY, worker INTEGER NOT NULL)');
  return db;
}

async function takeLock(db, me) {
  const take = db.transaction(() => {
    const row = db.prepare("SELECT worker FROM launcher_lock WHERE name = 'scale-out'").get();
    if (row !== undefined) return row.worker === me;
    db.prepare("INSERT INTO launcher_lock (name, worker) VALUES ('scale-out', ?)").run(me);
    return true;
  });
  for (let i = 0; i < 600; i++) {
    if (take.immediate()) return true;
    await sleep(200);
  }
  return false;
}

/** An instance is this launch: our token, and the image, type and subnet we asked for. */
const isOurs = (instance, token, request) => instance !== null && typeof instance === 'object' && instance.ClientToken === token
  && ECHOED.every((f) => canonical(instance[f] ?? null) === canonical(request[f] ?? null));

function instanceState(instance) {
  const id = typeof instance.InstanceId === 'string' && instance.InstanceId !== '' ? instance.InstanceId : undefined;
  if (instance.State === 'running' && id !== undefined) return { kind: 'running', id };
  if (instance.State === 'pending') return { kind: 'pending' };
  return { kind: 'unknown', why: `an instance in state ${JSON.stringify(instance.State)}` };
}

async function ec2(url, init) {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { res, json: await res.json().catch(() => null) };
  } catch (error) {
    return { error: `no answer (${error?.name})` };
  }
}

function failureOf(res, json) {
  if (res.status === 400 && json?.__type === 'IdempotentParameterMismatch') return { kind: 'token_mismatch' };
  if (res.status === 400) return { kind: 'rejected' };
  if (res.status === 403) return { kind: 'forbidden' };
  if (res.status === 503) {
    const s = Number(res.headers.get('retry-after'));
    return { kind: 'throttled', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown', why: `HTTP ${res.status}` };
}

/** RunInstances with the recorded body. */
async function runInstances(base, body, token, request) {
  const { res, json, error } = await ec2(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (error) return { kind: 'unknown', why: error };
  if (res.status === 200 || res.status === 202) return isOurs(json, token, request) ? instanceState(json) : { kind: 'unknown', why: 'not this launch' };
  return failureOf(res, json);
}

/** DescribeInstances filtered by our client token. */
async function describeByToken(base, token, request) {
  const { res, json, error } = await ec2(`${base}?client-token=${encodeURIComponent(token)}`, {});
  if (error) return { kind: 'unknown', why: error };
  if (res.status !== 200) return failureOf(res, json);
  if (json === null || typeof json !== 'object' || !Array.isArray(json.Instances)) return { kind: 'unknown', why: 'a list it cannot read' };
  const ours = json.Instances.filter((i) => isOurs(i, token, request));
  const running = ours.map(instanceState).find((s) => s.kind === 'running');
  if (running) return running;
  if (ours.length > 0) return { kind: 'pending' };
  return { kind: 'absent' };
}

async function launchOne(db, op, task) {
  const base = `${task.service.url}/instances`;
  const get = () => db.prepare('SELECT * FROM launches WHERE token = ?').get(op.key);
  const set = (fields) => {
    const cols = Object.keys(fields);
    db.prepare(`UPDATE launches SET ${cols.map((c) => `${c} = @${c}`).join(', ')} WHERE token = @token`).run({ ...fields, token: op.key });
  };
  const asked = { ClientToken: op.key, ...JSON.parse(op.body) };
  let row = get();
  if (row && FINAL.has(row.state)) return;
  if (row === undefined) {
    db.prepare("INSERT INTO launches (token, state, body) VALUES (?, 'requested', ?)").run(op.key, JSON.stringify(asked));
    row = get();
  } else if (row.state === 'requested' && canonical(asked) !== canonical(JSON.parse(row.body))) {
    return set({ state: 'needs_human', note: 'the launch changed after it was recorded and before it was sent' });
  }
  const request = JSON.parse(row.body);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    row = get();
    const backoff = Math.min(1000 * 2 ** round, 8000);
    if (row.state !== 'requested') {
      if (row.state !== 'describing') set({ state: 'describing' });
      if (row.not_before !== null && row.not_before > Date.now()) await sleep(row.not_before - Date.now());
      const seen = await describeByToken(base, op.key, request);
      if (seen.kind === 'running') return set({ state: 'running', instance_id: seen.id });
      if (seen.kind === 'forbidden') return set({ state: 'needs_human', paused: 1, note: 'access denied (403)' });
      if (seen.kind === 'rejected' || seen.kind === 'token_mismatch') throw new Error(`DescribeInstances refused for ${op.key} (400)`);
      if (seen.kind === 'throttled') { set({ state: 'throttled', not_before: Date.now() + seen.ms }); continue; }
      if (seen.kind !== 'absent') { set({ state: 'unknown', note: seen.why ?? 'pending' }); await sleep(backoff); continue; }
      // Not there (or another launch under our token): launching again is safe only under the token's promise.
      if (!task.service.idempotentReplay) return set({ state: 'needs_human', note: 'the API does not replay client tokens: a launch again could launch twice' });
      if (row.first_sent_at !== null && Date.now() - row.first_sent_at >= TOKEN_LIFETIME_MS) {
        return set({ state: 'needs_human', note: 'the client token may have expired since the first launch' });
      }
    }
    set({ state: 'launching', first_sent_at: row.first_sent_at ?? Date.now(), not_before: null });
    const answer = await runInstances(base, row.body, op.key, request);
    if (answer.kind === 'running') return set({ state: 'running', instance_id: answer.id });
    if (answer.kind === 'token_mismatch' || answer.kind === 'rejected') return set({ state: answer.kind });
    if (answer.kind === 'forbidden') return set({ state: 'needs_human', paused: 1, note: 'access denied (403)' });
    if (answer.kind === 'throttled') {
      set({ state: 'throttled', not_before: Date.now() + answer.ms + Math.floor((Math.random() * answer.ms) / 4) });
    } else {
      set({ state: 'unknown', note: answer.why ?? 'pending' });
      await sleep(backoff);
    }
  }
  if (get().state !== 'describing') set({ state: 'describing' });
  set({ state: 'needs_human', note: `no verdict after ${MAX_ROUNDS} rounds` });
}

export async function scaleOut(task, workerSlot) {
  const db = openDb();
  if (!(await takeLock(db, workerSlot))) return db.close();
  for (const op of task.operations) {
    if (db.prepare('SELECT 1 FROM launches WHERE paused = 1').get() !== undefined) break;
    if (op.kind === 'publish') await launchOne(db, op, task);
  }
  db.prepare("DELETE FROM launcher_lock WHERE name = 'scale-out' AND worker = ?").run(workerSlot);
  db.close();
}

export default {
  name: 'blind9-k04-instance-launcher',
  run: (env, task) => scaleOut(task, env.pid),
  inspect(disk) {
    const records = {};
    if (disk.readFile(DB) === undefined) return records;
    const db = new Database(DB, { readonly: true });
    try {
      if (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'launches'").get() === undefined) return records;
      for (const r of db.prepare('SELECT token, state, instance_id FROM launches').all()) {
        records[r.token] = { kind: 'operation', state: r.state, ...(r.state === 'running' && r.instance_id ? { receipt: r.instance_id } : {}) };
      }
    } finally {
      db.close();
    }
    return records;
  },
  states: {
    requested: 'authorized', launching: 'dispatched', unknown: 'outcome_unknown', throttled: { refines: 'outcome_unknown' },
    describing: 'reconciling', running: 'succeeded', rejected: 'failed', token_mismatch: 'conflict', needs_human: 'blocked',
  },
};
