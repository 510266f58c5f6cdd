/**
 * k05 — contractor payments through a payment-initiation API whose keys live 30 MINUTES (JSONL journal).
 *
 * Finance's monthly contractor run. Each payment of the task is POSTed to `${url}/payments` with an
 * `X-Idempotency-Key` header (the operation's key). The API replays a repeat of the key and payload
 * (201, the same payment), answers 409 while a request with the key is still being processed and 422
 * for the key with another payload, and — its documentation says — forgets a key 30 minutes after
 * the request: the same key after that creates a NEW payment. A payment can be fetched by its id
 * only, and the id comes in the answer, so a lost answer can be learned only by sending again.
 *
 * The journal is payments.jsonl, one JSON line per step, appended and fsynced before the step it
 * announces, rewritten afresh (temp, fsync, rename, folder fsync) at every start:
 *
 *   recorded → submitting → initiated | rejected | key_reused | needs_review
 *                         → no_answer | in_progress | waiting → checking → submitting again | initiated | needs_review
 *
 * - `recorded` keeps the body every send sends; `submitting` keeps when it was about to send.
 * - A payment is initiated only from an answer that echoes its end-to-end id and amount, with an id
 *   and status `initiated`; `processing` (or a 202, or a 409 in progress) is asked about again: by
 *   id when an answer named one, else by the same send.
 * - In doubt it sends again under the same key with the recorded body ONLY while the key is young:
 *   less than 30 minutes since the FIRST send it recorded, less a minute of margin (the API counts
 *   from when it received the request, which is later). Past that, or when the API does not promise
 *   replay, it never sends again: the payment ends `needs_review` for a human, who checks the bank
 *   statement before anything is paid twice.
 * - 503: `waiting` with the Retry-After time, kept across restarts. 400: rejected. 403:
 *   needs_review, and the run stops. 422: key_reused (conflict), never a new key.
 * - A payment recorded but not yet sent whose task changed meanwhile: needs_review.
 * - One worker at a time: a lock file hard-linked into place names the worker slot.
 */
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const LOG = 'payments.jsonl';
const LOCK = 'payments.lock';
const KEY_TTL_MS = 30 * 60 * 1000;
const SAFETY_MS = 60 * 1000;
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 12;
const FINAL = new Set(['initiated', 'rejected', 'key_reused', 'needs_review']);
const PROBLEM = 'https://api.pis.example/problems/';

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
export function parseEntries(text) {
  return text.split('\n').flatMap((line) => {
    try { const e = JSON.parse(line); return typeof e?.key === 'string' && typeof e.state === 'string' ? [e] : []; } catch { return []; }
  });
}

class Journal {
  entries = [];
  handle;
  async open() {
    const text = (await readText(LOG)) ?? '';
    this.entries = parseEntries(text);
    if (text !== '') {
      await writeDurably(`${LOG}.tmp`, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await rename(`${LOG}.tmp`, LOG);
      await fsyncPath('.');
    }
    this.handle = await open(LOG, 'a');
    if (text === '') { await this.handle.sync(); await fsyncPath('.'); }
  }
  of(key) { return this.entries.filter((e) => e.key === key); }
  last(key) { return this.of(key).at(-1); }
  halted() { return this.entries.some((e) => e.halt); }
  async append(entry) {
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

function paymentAnswer(json, sent) {
  if (json === null || typeof json !== 'object') return { kind: 'unknown', why: 'no payment in the answer' };
  if (json.end_to_end_id !== sent.end_to_end_id || canonical(json.instructed_amount ?? null) !== canonical(sent.instructed_amount ?? null)) {
    return { kind: 'unknown', why: 'the payment in the answer is not this one' };
  }
  const id = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
  if (json.status === 'initiated' && id !== undefined) return { kind: 'initiated', id };
  if (json.status === 'processing') return { kind: 'in_progress', id };
  return { kind: 'unknown', why: `status ${JSON.stringify(json.status)}` };
}

async function api(url, init, sent) {
  let res;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    return { kind: 'unknown', why: `no answer (${e?.name})` };
  }
  const json = await res.json().catch(() => null);
  const problem = typeof json?.type === 'string' && json.type.startsWith(PROBLEM) ? json.type.slice(PROBLEM.length) : '';
  if (res.status === 200 || res.status === 201) return paymentAnswer(json, sent);
  if (res.status === 202) return { kind: 'in_progress', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined };
  if (res.status === 409 && problem === 'request-in-progress') return { kind: 'in_progress' };
  if (res.status === 422) return { kind: 'key_reused' };
  if (res.status === 400) return { kind: 'rejected' };
  if (res.status === 403) return { kind: 'forbidden' };
  if (res.status === 503) {
    const s = Number(res.headers.get('retry-after'));
    return { kind: 'waiting', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown', why: `HTTP ${res.status}` };
}

async function pay(op, journal, task) {
  const first = journal.of(op.key);
  const last = first.at(-1);
  if (last && FINAL.has(last.state)) return;
  const note = (state, extra = {}) => journal.append({ key: op.key, state, ...extra });
  const recorded = first.find((e) => e.state === 'recorded');
  const body = recorded?.body ?? JSON.stringify(JSON.parse(op.body));
  if (recorded === undefined) await note('recorded', { body });
  else if (last.state === 'recorded' && canonical(JSON.parse(op.body)) !== canonical(JSON.parse(body))) return note('needs_review', { why: 'the payment changed before it was sent' });
  const sent = JSON.parse(body);
  const url = `${task.service.url}/payments`;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const entries = journal.of(op.key);
    const state = entries.at(-1).state;
    const backoff = Math.min(1000 * 2 ** round, 8000);
    if (state !== 'recorded') {
      if (state !== 'checking') await note('checking');
      const notBefore = entries.findLast((e) => e.notBefore !== undefined)?.notBefore;
      if (notBefore !== undefined && notBefore > Date.now()) await sleep(notBefore - Date.now());
      const knownId = entries.findLast((e) => e.paymentId !== undefined)?.paymentId;
      if (knownId !== undefined) {
        const seen = await api(`${url}/${encodeURIComponent(knownId)}`, {}, sent);
        if (seen.kind === 'initiated') return note('initiated', { paymentId: seen.id, receipt: seen.id });
        if (seen.kind === 'forbidden') return note('needs_review', { why: 'forbidden (403)', halt: true });
        if (seen.kind === 'rejected') throw new Error(`payment lookup refused (400) for ${op.key}`);
        if (seen.kind === 'waiting') { await note('waiting', { notBefore: Date.now() + seen.ms }); continue; }
        if (seen.kind === 'in_progress') { await note('in_progress'); await sleep(backoff); continue; }
      }
      if (!task.service.idempotentReplay) return note('needs_review', { why: 'the API does not replay keys: a send again could pay twice' });
      const firstSentAt = entries.find((e) => e.state === 'submitting')?.at;
      if (firstSentAt !== undefined && Date.now() - firstSentAt >= KEY_TTL_MS - SAFETY_MS) {
        return note('needs_review', { why: 'the idempotency key may have expired (30 min): check the account before paying again' });
      }
    }
    await note('submitting', { at: Date.now() });
    const answer = await api(url, { method: 'POST', headers: { 'X-Idempotency-Key': op.key, 'content-type': 'application/json' }, body }, sent);
    if (answer.kind === 'initiated') return note('initiated', { paymentId: answer.id, receipt: answer.id });
    if (answer.kind === 'rejected' || answer.kind === 'key_reused') return note(answer.kind);
    if (answer.kind === 'forbidden') return note('needs_review', { why: 'forbidden (403)', halt: true });
    if (answer.kind === 'waiting') {
      await note('waiting', { notBefore: Date.now() + answer.ms + Math.floor((Math.random() * answer.ms) / 4) });
    } else if (answer.kind === 'in_progress') {
      await note('in_progress', answer.id !== undefined ? { paymentId: answer.id } : {});
      await sleep(backoff);
    } else {
      await note('no_answer', { why: answer.why });
      await sleep(500 * (round + 1));
    }
  }
  if (journal.last(op.key).state !== 'checking') await note('checking');
  await note('needs_review', { why: `no verdict after ${MAX_ROUNDS} rounds` });
}

export default {
  name: 'blind9-k05-payment-initiation',
  async run(env, task) {
    if (!(await takeLock(env.pid))) return;
    const journal = new Journal();
    await journal.open();
    for (const op of task.operations) {
      if (journal.halted()) break;
      if (op.kind === 'publish') await pay(op, journal, task);
    }
    await journal.close();
    await unlink(LOCK);
    await fsyncPath('.');
  },
  inspect(disk) {
    const records = {};
    for (const e of parseEntries(disk.readFile(LOG) ?? '')) {
      const r = (records[e.key] ??= { kind: 'operation', history: [] });
      r.history.push(e.state);
      if (e.state === 'initiated') r.receipt = e.receipt;
    }
    return records;
  },
  states: {
    recorded: 'authorized', submitting: 'dispatched', no_answer: 'outcome_unknown',
    in_progress: { refines: 'outcome_unknown' }, waiting: { refines: 'outcome_unknown' },
    checking: 'reconciling', initiated: 'succeeded', rejected: 'failed', key_reused: 'conflict', needs_review: 'blocked',
  },
};
