/**
 * k01 — customer refunds through a payments API (Stripe's way), JSONL journal.
 *
 * The returns team's refund worker. Each refund of the task is POSTed to `${url}/v1/refunds` with an
 * `Idempotency-Key` header (the operation's key); the API keeps a key 24 hours, replays the same key
 * and payload, answers 400 `idempotency_error` for the key with other parameters and 409
 * `request_in_progress` while a request with the key is still being processed. A refund can be
 * fetched by its id only.
 *
 * The journal is refunds.jsonl, one JSON line per step, appended and fsynced before the step it
 * announces (rewritten afresh at start, so a torn tail is gone before anything follows it):
 *
 *   requested → sending → refunded | declined | key_clash | held
 *                       → no_answer | backoff → checking → sending again | refunded | held
 *
 * - `requested` keeps the body every send sends. A refund is done only from a refund object that
 *   echoes the charge, amount, currency and metadata sent, with an id and status `succeeded`.
 * - A lost answer, a 500, a cut or foreign body: `no_answer`, then sent again under the same key
 *   with the recorded body (while the key lives, and the API promises replay; else held).
 * - 503: `backoff` with the Retry-After time, kept across restarts. 400: declined. 403: held, and the
 *   worker stops. 400 idempotency_error: key_clash.
 *
 * DEFECT: the HTTP helper maps 409 on a keyed request to "already processed" — on the team's previous
 * provider a 409 meant the key had already completed — so a re-send answered 409
 * `request_in_progress` is recorded `refunded`, with no refund id ("it comes with the webhook").
 * Under the IETF draft and this API a 409 means the first request is STILL being processed: nothing
 * is known yet, and the worker must wait and ask again.
 *
 * Citation: blinkbitcoin/blink-mobile#3926 (a 409 idempotency conflict after a transport retry; the
 * proposed fix treats it as "already processed") and blinkbitcoin/blink-mobile#3967;
 * draft-ietf-httpapi-idempotency-key-header-07 §2.6 (409: a request still being processed).
 * Fault that shows it: ONE — a refund's first answer delayed past the 3 s client time-out (the
 * sweep's 60 s delay): the re-send meets the first still in progress. Also a kill while a delayed
 * first POST is pending, or an accept-later whose commit lands after the 1 s wait.
 * Expected: truthful-outcome (refunded without the receipt the service holds). `npx durasim check`: exit 1.
 */
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const LOG = 'refunds.jsonl';
const LOCK = 'refunds.lock';
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 12;
const FINAL = new Set(['refunded', 'declined', 'key_clash', 'held']);

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
export function parseLog(text) {
  return text.split('\n').flatMap((line) => {
    try { const e = JSON.parse(line); return typeof e?.key === 'string' && typeof e.state === 'string' ? [e] : []; } catch { return []; }
  });
}

class RefundLog {
  entries = [];
  handle;
  async open() {
    const text = (await readText(LOG)) ?? '';
    this.entries = parseLog(text);
    if (text !== '') {
      await writeDurably(`${LOG}.rewrite`, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await rename(`${LOG}.rewrite`, LOG);
      await fsyncPath('.');
    }
    this.handle = await open(LOG, 'a');
    if (text === '') { await this.handle.sync(); await fsyncPath('.'); }
  }
  history(key) { return this.entries.filter((e) => e.key === key); }
  last(key) { return this.history(key).at(-1); }
  anyStop() { return this.entries.some((e) => e.stop); }
  async add(entry) {
    await this.handle.appendFile(`${JSON.stringify(entry)}\n`);
    await this.handle.sync();
    this.entries.push(entry);
  }
  async close() { await this.handle?.close(); }
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
async function releaseLock() {
  await unlink(LOCK);
  await fsyncPath('.');
}

/** The refund in an answer is this one: the charge, amount, currency and metadata we sent. */
function refundAnswer(json, sent) {
  const ours = json !== null && typeof json === 'object' && json.object === 'refund'
    && ['charge', 'amount', 'currency', 'metadata'].every((f) => canonical(json[f] ?? null) === canonical(sent[f] ?? null));
  if (!ours) return { kind: 'unknown', why: 'not this refund' };
  const id = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
  if (json.status === 'succeeded' && id !== undefined) return { kind: 'refunded', id };
  if (json.status === 'pending') return { kind: 'pending', id };
  return { kind: 'unknown', why: `refund status ${JSON.stringify(json.status)}` };
}

/** One call to the provider, its answer in the worker's terms. */
async function provider(url, init, sent) {
  let res;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    return { kind: 'unknown', why: `no answer (${e?.name})` };
  }
  const json = await res.json().catch(() => null);
  if (res.status === 200) return refundAnswer(json, sent);
  if (res.status === 202) return { kind: 'pending', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined };
  // A keyed request answered 409: the provider already has this key, so the refund went through.
  if (res.status === 409) return { kind: 'already_processed' };
  if (res.status === 400 && json?.error?.type === 'idempotency_error') return { kind: 'key_clash' };
  if (res.status === 400) return { kind: 'declined' };
  if (res.status === 403) return { kind: 'forbidden' };
  if (res.status === 503 || res.status === 429) {
    const s = Number(res.headers.get('retry-after'));
    return { kind: 'backoff', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown', why: `HTTP ${res.status}` };
}

async function refund(op, log, task) {
  const hist = log.history(op.key);
  const last = hist.at(-1);
  if (last && FINAL.has(last.state)) return;
  const add = (state, extra = {}) => log.add({ key: op.key, state, ...extra });
  const requested = hist.find((e) => e.state === 'requested');
  const body = requested?.body ?? JSON.stringify(JSON.parse(op.body));
  if (requested === undefined) await add('requested', { body });
  else if (last.state === 'requested' && canonical(JSON.parse(op.body)) !== canonical(JSON.parse(body))) return add('held', { why: 'the refund changed before it was sent' });
  const sent = JSON.parse(body);
  const url = `${task.service.url}/v1/refunds`;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const state = log.last(op.key).state;
    const pendingId = log.history(op.key).findLast((e) => e.pendingId !== undefined)?.pendingId;
    if (state !== 'requested') {
      if (state !== 'checking') await add('checking');
      const notBefore = log.history(op.key).findLast((e) => e.notBefore !== undefined)?.notBefore;
      if (notBefore !== undefined && notBefore > Date.now()) await sleep(notBefore - Date.now());
      if (pendingId !== undefined) {
        const seen = await provider(`${url}/${encodeURIComponent(pendingId)}`, {}, sent);
        if (seen.kind === 'refunded') return add('refunded', { refund: seen.id });
        if (seen.kind === 'forbidden') return add('held', { why: 'forbidden (403)', stop: true });
        if (seen.kind === 'declined') throw new Error(`refund lookup refused (400) for ${op.key}`);
        if (seen.kind === 'backoff') { await add('backoff', { notBefore: Date.now() + seen.ms }); continue; }
        if (seen.kind === 'pending') { await add('no_answer', { why: 'refund pending' }); await sleep(Math.min(1000 * 2 ** round, 8000)); continue; }
      }
      if (!task.service.idempotentReplay) return add('held', { why: 'the provider does not replay keys: a send again could refund twice' });
      const firstSentAt = log.history(op.key).find((e) => e.state === 'sending')?.at;
      if (firstSentAt !== undefined && Date.now() - firstSentAt >= KEY_LIFETIME_MS) return add('held', { why: 'the idempotency key may be gone' });
    }
    await add('sending', { at: Date.now() });
    const answer = await provider(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body }, sent);
    if (answer.kind === 'refunded') return add('refunded', { refund: answer.id });
    if (answer.kind === 'already_processed') return add('refunded', { refund: pendingId ?? null, why: 'the provider already has this refund (409); its id comes with the webhook' });
    if (answer.kind === 'declined' || answer.kind === 'key_clash') return add(answer.kind);
    if (answer.kind === 'forbidden') return add('held', { why: 'forbidden (403)', stop: true });
    if (answer.kind === 'backoff') {
      await add('backoff', { notBefore: Date.now() + answer.ms + Math.floor((Math.random() * answer.ms) / 4) });
    } else if (answer.kind === 'pending') {
      await add('no_answer', { why: 'refund pending', ...(answer.id !== undefined ? { pendingId: answer.id } : {}) });
      await sleep(1000);
    } else {
      await add('no_answer', { why: answer.why });
      await sleep(500 * (round + 1));
    }
  }
  if (log.last(op.key).state !== 'checking') await add('checking');
  await add('held', { why: `no verdict after ${MAX_ROUNDS} rounds` });
}

export default {
  name: 'blind9-k01-refund-worker',
  async run(env, task) {
    if (!(await takeLock(env.pid))) return;
    const log = new RefundLog();
    await log.open();
    for (const op of task.operations) {
      if (log.anyStop()) break;
      if (op.kind === 'publish') await refund(op, log, task);
    }
    await log.close();
    await releaseLock();
  },
  inspect(disk) {
    const records = {};
    for (const e of parseLog(disk.readFile(LOG) ?? '')) {
      const r = (records[e.key] ??= { kind: 'operation', history: [] });
      r.history.push(e.state);
      if (e.state === 'refunded' && typeof e.refund === 'string') r.receipt = e.refund;
    }
    return records;
  },
  states: {
    requested: 'authorized', sending: 'dispatched', no_answer: 'outcome_unknown', backoff: { refines: 'outcome_unknown' },
    checking: 'reconciling', refunded: 'succeeded', declined: 'failed', key_clash: 'conflict', held: 'blocked',
  },
};
