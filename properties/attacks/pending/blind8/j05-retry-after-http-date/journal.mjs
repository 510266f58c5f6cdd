/**
 * j05 — Retry-After read as seconds only; the gateway sends an HTTP date (SMS gateway, JSONL journal).
 *
 * A reminder sender: each SMS of the task is POSTed to `${url}/v1/messages` with an `Idempotency-Key`
 * header (201 `{ id, status }`, replays a known key, 409 while a request with the key is under way,
 * 422 for a reused key, query by message id). Its journal is a JSONL file, every line appended and
 * fsynced before the step it announces; one worker at a time (a lock file hard-linked into place).
 *
 *   drafted → handing_off → delivered | bounced | key_reused | suspended
 *                         → limbo | backoff → confirming → handing_off again | delivered | parked
 *
 * A 503 means "throttled, come back later": the worker records `backoff` with the time the
 * gateway's `Retry-After` asks for, in the journal, so a restart waits too (correct), and never
 * ends a message on a 503 (correct).
 *
 * DEFECT: the header is parsed as `parseInt(value, 10)` seconds. RFC 9110 lets Retry-After be an
 * HTTP date, and this gateway sends dates (`Retry-After: Thu, 01 Jan 2026 00:00:02 GMT`): the parse
 * is NaN, the worker falls back to its own 250 ms backoff and sends again long before the gateway
 * asked — the hammering that gets a sender's account suspended.
 *
 * Citation: RFC 9110 §10.2.3 (Retry-After = HTTP-date / delay-seconds); the seconds-only parse:
 * no citation (a common pattern in hand-written retry helpers).
 * Fault that shows it: ONE `unavailable` (503) answer to any send (the contract's wait is a date).
 * Expected: failure-class-respected (after a 503 asking for a wait, the message is sent again
 * sooner). `npx durasim check`: exit 1.
 */
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const LOG = 'outbox.jsonl';
const LOCK = 'outbox.lock';
const FINAL = new Set(['delivered', 'bounced', 'key_reused', 'suspended', 'parked']);
const KEY_LIFETIME_MS = 24 * 3600 * 1000;
const FALLBACK_BACKOFF_MS = 250;

const codeOf = (e) => e?.code;
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
function parse(text) {
  return text.split('\n').flatMap((line) => {
    try { const e = JSON.parse(line); return typeof e?.key === 'string' && typeof e.state === 'string' ? [e] : []; } catch { return []; }
  });
}

class Outbox {
  entries = [];
  handle;
  async open() {
    const text = (await readText(LOG)) ?? '';
    this.entries = parse(text);
    if (text !== '') {
      await writeDurably(`${LOG}.rewrite`, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await rename(`${LOG}.rewrite`, LOG);
      await fsyncPath('.');
    }
    this.handle = await open(LOG, 'a');
    if (text === '') { await this.handle.sync(); await fsyncPath('.'); }
  }
  of(key) { return this.entries.filter((e) => e.key === key); }
  last(key) { return this.of(key).at(-1); }
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
    const owner = await readText(LOCK);
    if (owner !== undefined && JSON.parse(owner).worker === me) return true;
    await sleep(200);
  }
  return false;
}

/** Milliseconds the gateway asks us to wait. */
function retryAfterMs(header) {
  const seconds = parseInt(header ?? '', 10);
  return Number.isNaN(seconds) ? FALLBACK_BACKOFF_MS : seconds * 1000;
}

async function call(url, init) {
  let response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  } catch {
    return { kind: 'limbo' };
  }
  const json = await response.json().catch(() => null);
  if ((response.status === 200 || response.status === 201 || response.status === 202) && json && typeof json === 'object') {
    const id = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
    if (json.status === 'committed' && id !== undefined) return { kind: 'delivered', id };
    return { kind: 'limbo', id, pending: json.status === 'pending' };
  }
  if (response.status === 409) return { kind: 'limbo', pending: true };
  if (response.status === 422) return { kind: 'key_reused' };
  if (response.status === 400) return { kind: 'bounced' };
  if (response.status === 403) return { kind: 'suspended' };
  if (response.status === 503) return { kind: 'backoff', waitMs: retryAfterMs(response.headers.get('retry-after')) };
  return { kind: 'limbo' };
}

async function sendOne(op, outbox, url) {
  const last = outbox.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const add = (state, extra = {}) => outbox.add({ key: op.key, state, ...extra });
  if (last === undefined) await add('drafted', { body: op.body });
  const body = outbox.of(op.key)[0].body;
  for (let round = 0; round < 10; round++) {
    const state = outbox.last(op.key).state;
    if (state !== 'drafted') {
      if (state !== 'confirming') await add('confirming');
      const id = outbox.of(op.key).findLast((e) => e.id !== undefined)?.id;
      if (id !== undefined) {
        const found = await call(`${url}/v1/messages/${encodeURIComponent(id)}`, {});
        if (found.kind === 'delivered') return add('delivered', { id: found.id });
        if (found.pending) { await add('limbo'); await sleep(1000); continue; }
      }
      const firstSent = outbox.of(op.key).find((e) => e.state === 'handing_off')?.at;
      if (firstSent !== undefined && Date.now() - firstSent >= KEY_LIFETIME_MS) return add('parked', { reason: 'the key may be forgotten' });
      const notBefore = outbox.of(op.key).findLast((e) => e.notBefore !== undefined)?.notBefore;
      if (notBefore !== undefined && notBefore > Date.now()) await sleep(notBefore - Date.now());
    }
    await add('handing_off', { at: Date.now() });
    const answer = await call(`${url}/v1/messages`, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body });
    if (answer.kind === 'delivered') return add('delivered', { id: answer.id });
    if (answer.kind === 'bounced' || answer.kind === 'key_reused' || answer.kind === 'suspended') return add(answer.kind);
    if (answer.kind === 'backoff') {
      await add('backoff', { notBefore: Date.now() + answer.waitMs });
    } else {
      await add('limbo', answer.id !== undefined ? { id: answer.id } : {});
      await sleep(answer.pending ? 1000 : 500 * (round + 1));
    }
  }
  await add('confirming');
  await add('parked', { reason: 'no verdict' });
}

export default {
  name: 'blind8-j05-retry-after-http-date',
  async run(env, task) {
    if (!(await takeLock(env.pid))) return;
    const outbox = new Outbox();
    await outbox.open();
    for (const op of task.operations) {
      if (outbox.entries.some((e) => e.state === 'suspended')) break;
      if (op.kind === 'publish') await sendOne(op, outbox, task.service.url);
    }
    await outbox.close();
    await unlink(LOCK);
    await fsyncPath('.');
  },
  inspect(disk) {
    const records = {};
    for (const e of parse(disk.readFile(LOG) ?? '')) {
      const r = (records[e.key] ??= { kind: 'operation', history: [] });
      r.history.push(e.state);
      if (e.state === 'delivered') r.receipt = e.id;
    }
    return records;
  },
  states: {
    drafted: 'authorized', handing_off: 'dispatched', limbo: 'outcome_unknown', backoff: { refines: 'outcome_unknown' },
    confirming: 'reconciling', delivered: 'succeeded', bounced: 'failed', key_reused: 'conflict', suspended: 'blocked', parked: 'blocked',
  },
};
