/**
 * k08 — vendor payouts against a payments API that keeps idempotency keys durably (JSONL journal).
 *
 * Accounts payable's vendor payout worker. Each payout of the task is POSTed to `${url}/v1/payouts`
 * with an `Idempotency-Key` header (the operation's key). This provider keeps every key (no expiry):
 * a repeat of a key with the same payload is answered with the same payout
 * (`Idempotent-Replayed: true`), a repeat while the first request is still being processed with 409
 * `request_in_progress`, a key with other parameters with 400 `idempotency_error`. A payout can be
 * fetched by its id only.
 *
 * The journal is vendor-payouts.jsonl, one JSON line per step, appended and fsynced before the step
 * it announces, and written afresh (temp, fsync, rename, folder fsync) at each start:
 *
 *   queued → sending → paid | rejected | duplicate | paused | held
 *                    → unknown | in_progress | waiting → checking → sending again | paid | held
 *
 * - `queued` keeps the body every send sends (the payout as first authorized).
 * - A payout is paid only from a payout object that echoes the amount, currency and metadata sent,
 *   with an id and status `paid`.
 * - 409 `request_in_progress` is NOT an answer about the payout: a request with the key is still
 *   being processed. The worker records `in_progress`, waits (1 s, 2 s, 4 s…, at most 8 s, or what a
 *   Retry-After says) and asks again: by id when a pending payout named one, else by the same send
 *   under the same key. 202 and status `pending` likewise.
 * - A lost answer, a 500, a cut or foreign body: `unknown`, then the same send again (replay).
 * - No send again to an API that does not promise replay (then held for a human).
 * - 503/429: `waiting` with the Retry-After time, kept across restarts. 400: rejected. 403: paused, the
 *   run stops. 400 idempotency_error: duplicate (the key holds another payout).
 * - A payout recorded but not yet sent whose task changed meanwhile: held for review.
 * - One worker at a time: a lock file hard-linked into place names the worker slot.
 */
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const JOURNAL = 'vendor-payouts.jsonl';
const LOCK = 'vendor-payouts.lock';
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 14;
const MAX_WAIT_MS = 8000;
const FINAL = new Set(['paid', 'rejected', 'duplicate', 'paused', 'held']);

const codeOf = (e) => e?.code;
const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';

async function readText(path) {
  try { return await readFile(path, 'utf8'); } catch (e) { if (codeOf(e) === 'ENOENT') return undefined; throw e; }
}
async function fsyncPath(path) {
  const h = await open(path, 'r');
  try { await h.sync(); } finally { await h.close(); }
}
async function writeDurably(path, text) {
  const h = await open(path, 'w');
  try { await h.writeFile(text); await h.sync(); } finally { await h.close(); }
}
export function entriesOf(text) {
  return text.split('\n').flatMap((line) => {
    try { const e = JSON.parse(line); return typeof e?.id === 'string' && typeof e.state === 'string' ? [e] : []; } catch { return []; }
  });
}

async function openLedger() {
  const text = (await readText(JOURNAL)) ?? '';
  const entries = entriesOf(text);
  if (text !== '') {
    await writeDurably(`${JOURNAL}.tmp`, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    await rename(`${JOURNAL}.tmp`, JOURNAL);
    await fsyncPath('.');
  }
  const handle = await open(JOURNAL, 'a');
  if (text === '') { await handle.sync(); await fsyncPath('.'); }
  return {
    of: (id) => entries.filter((e) => e.id === id),
    paused: () => entries.some((e) => e.state === 'paused'),
    async add(entry) {
      await handle.appendFile(`${JSON.stringify(entry)}\n`);
      await handle.sync();
      entries.push(entry);
    },
    close: () => handle.close(),
  };
}

async function takeLock(me) {
  const mine = `${LOCK}.${me}`;
  for (let i = 0; i < 600; i++) {
    await writeDurably(mine, JSON.stringify({ worker: me }));
    const taken = await link(mine, LOCK).then(() => true, (e) => { if (codeOf(e) !== 'EEXIST') throw e; return false; });
    await unlink(mine);
    if (taken) { await fsyncPath('.'); return true; }
    const holder = await readText(LOCK);
    if (holder !== undefined && JSON.parse(holder).worker === me) return true;
    await sleep(200);
  }
  return false;
}

function retryAfterMs(res) {
  const s = Number(res.headers.get('retry-after'));
  return Number.isFinite(s) && s >= 0 ? s * 1000 : undefined;
}

function readPayout(json, sent) {
  const ours = json !== null && typeof json === 'object' && json.object === 'payout'
    && canonical(json.amount ?? null) === canonical(sent.amount ?? null)
    && canonical(json.currency ?? null) === canonical(sent.currency ?? null)
    && canonical(json.metadata ?? null) === canonical(sent.metadata ?? null);
  if (!ours) return { kind: 'unknown', why: 'not this payout' };
  const payout = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
  if (json.status === 'paid' && payout !== undefined) return { kind: 'paid', payout };
  if (json.status === 'pending') return { kind: 'in_progress', payout };
  return { kind: 'unknown', why: `payout status ${JSON.stringify(json.status)}` };
}

async function request(url, init, sent) {
  let res;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    return { kind: 'unknown', why: `no answer (${e?.name})` };
  }
  const json = await res.json().catch(() => null);
  if (res.status === 200) return readPayout(json, sent);
  if (res.status === 202) return { kind: 'in_progress', payout: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined };
  if (res.status === 409 && json?.error?.code === 'request_in_progress') return { kind: 'in_progress', waitMs: retryAfterMs(res) };
  if (res.status === 400 && json?.error?.type === 'idempotency_error') return { kind: 'duplicate' };
  if (res.status === 400) return { kind: 'rejected' };
  if (res.status === 403) return { kind: 'paused' };
  if (res.status === 503 || res.status === 429) return { kind: 'waiting', waitMs: retryAfterMs(res) ?? 1000 };
  return { kind: 'unknown', why: `HTTP ${res.status}` };
}

async function payVendor(op, ledger, task) {
  const history = ledger.of(op.key);
  const last = history.at(-1);
  if (last && FINAL.has(last.state)) return;
  const add = (state, extra = {}) => ledger.add({ id: op.key, state, ...extra });
  const queued = history.find((e) => e.state === 'queued');
  const body = queued?.body ?? JSON.stringify(JSON.parse(op.body));
  if (queued === undefined) await add('queued', { body });
  else if (last.state === 'queued' && canonical(JSON.parse(op.body)) !== canonical(JSON.parse(body))) return add('held', { why: 'the payout changed before it was sent' });
  const sent = JSON.parse(body);
  const url = `${task.service.url}/v1/payouts`;
  let inProgress = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const entries = ledger.of(op.key);
    const state = entries.at(-1).state;
    if (state !== 'queued') {
      if (state !== 'checking') await add('checking');
      const notBefore = entries.findLast((e) => e.notBefore !== undefined)?.notBefore;
      if (notBefore !== undefined && notBefore > Date.now()) await sleep(notBefore - Date.now());
      const payout = entries.findLast((e) => e.payout !== undefined)?.payout;
      if (payout !== undefined) {
        const seen = await request(`${url}/${encodeURIComponent(payout)}`, {}, sent);
        if (seen.kind === 'paid') return add('paid', { payout: seen.payout, receipt: seen.payout });
        if (seen.kind === 'paused') return add('paused', { why: 'permission refused (403)' });
        if (seen.kind === 'rejected' || seen.kind === 'duplicate') throw new Error(`payout lookup refused (400) for ${op.key}`);
        if (seen.kind === 'waiting') { await add('waiting', { notBefore: Date.now() + seen.waitMs }); continue; }
        if (seen.kind === 'in_progress') {
          await add('in_progress');
          await sleep(Math.min(1000 * 2 ** inProgress++, MAX_WAIT_MS));
          continue;
        }
      }
      if (!task.service.idempotentReplay) return add('held', { why: 'the API does not promise replay: a send again could pay twice' });
    }
    await add('sending', { at: Date.now() });
    const answer = await request(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body }, sent);
    if (answer.kind === 'paid') return add('paid', { payout: answer.payout, receipt: answer.payout });
    if (answer.kind === 'rejected' || answer.kind === 'duplicate' || answer.kind === 'paused') return add(answer.kind);
    if (answer.kind === 'waiting') {
      await add('waiting', { notBefore: Date.now() + answer.waitMs + Math.floor((Math.random() * answer.waitMs) / 4) });
    } else if (answer.kind === 'in_progress') {
      // Still being processed: nothing is known yet. Wait, then ask again.
      await add('in_progress', answer.payout !== undefined ? { payout: answer.payout } : {});
      await sleep(answer.waitMs ?? Math.min(1000 * 2 ** inProgress++, MAX_WAIT_MS));
    } else {
      await add('unknown', { why: answer.why });
      await sleep(500 * (round + 1));
    }
  }
  if (ledger.of(op.key).at(-1).state !== 'checking') await add('checking');
  await add('held', { why: `no verdict after ${MAX_ROUNDS} rounds` });
}

export default {
  name: 'blind9-k08-vendor-payouts',
  async run(env, task) {
    if (!(await takeLock(env.pid))) return;
    const ledger = await openLedger();
    for (const op of task.operations) {
      if (ledger.paused()) break;
      if (op.kind === 'publish') await payVendor(op, ledger, task);
    }
    await ledger.close();
    await unlink(LOCK);
    await fsyncPath('.');
  },
  inspect(disk) {
    const records = {};
    for (const e of entriesOf(disk.readFile(JOURNAL) ?? '')) {
      const r = (records[e.id] ??= { kind: 'operation', history: [] });
      r.history.push(e.state);
      if (e.state === 'paid') r.receipt = e.receipt;
    }
    return records;
  },
  states: {
    queued: 'authorized', sending: 'dispatched', unknown: 'outcome_unknown',
    in_progress: { refines: 'outcome_unknown' }, waiting: { refines: 'outcome_unknown' },
    checking: 'reconciling', paid: 'succeeded', rejected: 'failed', duplicate: 'conflict', paused: 'blocked', held: 'blocked',
  },
};
