/**
 * k10 — purchase orders to a supplier API that fingerprints the raw request body (JSONL journal).
 *
 * The replenishment worker of a distribution centre. Each purchase order of the task is POSTed to
 * `${url}/api/purchase-orders` with an `Idempotency-Key` header (the operation's key). The supplier
 * keeps keys (no expiry) and fingerprints a request by its BYTES: the same key with the same bytes
 * gets the first answer again (201), the same key with any other bytes — even the same JSON written
 * differently — gets 422; 409 while a request with the key is still being processed. An order can be
 * fetched by its id only.
 *
 * The journal is purchase-orders.jsonl, one JSON line per step, appended and fsynced before the step
 * it announces, rewritten afresh (temp, fsync, rename, folder fsync) at each start:
 *
 *   drafted → transmitting → accepted | refused | key_conflict | held
 *                          → no_reply | processing | deferred → verifying → transmitting again | accepted | held
 *
 * - `drafted` keeps the exact bytes of the order as the task gave them, and their SHA-256; every send,
 *   the first and every re-send, sends THOSE bytes — never a re-serialised or rebuilt body — so a
 *   repeat is always "the same request" to the supplier.
 * - An order is accepted only from an answer that echoes its PO number and supplier, with an id and
 *   status `accepted`. `received` (or a 202, or a 409 in progress): asked again, by id when an answer
 *   named one, else by the same send, after a growing wait.
 * - In doubt (restart, time-out, 500, garbled answer) it sends the recorded bytes again under the
 *   same key — the supplier keeps keys — unless the API does not promise replay (then held).
 * - 422: key_conflict for a human (the key holds another order), never a new key. 400: refused.
 *   403: held, and the run stops. 503: deferred with the Retry-After time, kept across restarts.
 * - An order drafted but not yet sent whose task changed meanwhile: held for review.
 * - One worker at a time: a lock file hard-linked into place names the worker slot.
 */
import { createHash } from 'node:crypto';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const LOG = 'purchase-orders.jsonl';
const LOCK = 'purchase-orders.lock';
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 14;
const FINAL = new Set(['accepted', 'refused', 'key_conflict', 'held']);

const codeOf = (e) => e?.code;
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

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
export function linesOf(text) {
  return text.split('\n').flatMap((line) => {
    try { const e = JSON.parse(line); return typeof e?.po === 'string' && typeof e.state === 'string' ? [e] : []; } catch { return []; }
  });
}

class OrderLog {
  lines = [];
  file;
  async open() {
    const text = (await readText(LOG)) ?? '';
    this.lines = linesOf(text);
    if (text !== '') {
      await writeDurably(`${LOG}.tmp`, this.lines.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await rename(`${LOG}.tmp`, LOG);
      await fsyncPath('.');
    }
    this.file = await open(LOG, 'a');
    if (text === '') { await this.file.sync(); await fsyncPath('.'); }
  }
  of(po) { return this.lines.filter((e) => e.po === po); }
  halted() { return this.lines.some((e) => e.haltRun); }
  async log(line) {
    await this.file.appendFile(`${JSON.stringify(line)}\n`);
    await this.file.sync();
    this.lines.push(line);
  }
  async close() { await this.file?.close(); }
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

function orderAnswer(json, draft) {
  if (json === null || typeof json !== 'object' || json.po_number !== draft.po_number || json.supplier !== draft.supplier) {
    return { kind: 'no_reply', why: 'the answer is not this order' };
  }
  const id = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
  if (json.status === 'accepted' && id !== undefined) return { kind: 'accepted', id };
  if (json.status === 'received') return { kind: 'processing', id };
  return { kind: 'no_reply', why: `status ${JSON.stringify(json.status)}` };
}

async function supplier(url, init, draft) {
  let res;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    return { kind: 'no_reply', why: `no answer (${e?.name})` };
  }
  const json = await res.json().catch(() => null);
  const type = typeof json?.type === 'string' ? json.type : '';
  if (res.status === 200 || res.status === 201) return orderAnswer(json, draft);
  if (res.status === 202) return { kind: 'processing', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined };
  if (res.status === 409 && type.endsWith('/request-in-progress')) return { kind: 'processing' };
  if (res.status === 422) return { kind: 'key_conflict' };
  if (res.status === 400) return { kind: 'refused' };
  if (res.status === 403) return { kind: 'forbidden' };
  if (res.status === 503) {
    const s = Number(res.headers.get('retry-after'));
    return { kind: 'deferred', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'no_reply', why: `HTTP ${res.status}` };
}

async function placeOrder(op, log, task) {
  const mine = log.of(op.key);
  const last = mine.at(-1);
  if (last && FINAL.has(last.state)) return;
  const write = (state, extra = {}) => log.log({ po: op.key, state, ...extra });
  const drafted = mine.find((e) => e.state === 'drafted');
  if (drafted === undefined) await write('drafted', { bytes: op.body, sha256: sha256(op.body) });
  else if (last.state === 'drafted' && op.body !== drafted.bytes) return write('held', { why: 'the order changed after it was drafted and before it was sent' });
  const bytes = drafted?.bytes ?? op.body;
  const draft = JSON.parse(bytes);
  const url = `${task.service.url}/api/purchase-orders`;
  let patience = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const lines = log.of(op.key);
    const state = lines.at(-1).state;
    if (state !== 'drafted') {
      if (state !== 'verifying') await write('verifying');
      const notBefore = lines.findLast((e) => e.notBefore !== undefined)?.notBefore;
      if (notBefore !== undefined && notBefore > Date.now()) await sleep(notBefore - Date.now());
      const orderId = lines.findLast((e) => e.orderId !== undefined)?.orderId;
      if (orderId !== undefined) {
        const seen = await supplier(`${url}/${encodeURIComponent(orderId)}`, {}, draft);
        if (seen.kind === 'accepted') return write('accepted', { orderId: seen.id, receipt: seen.id });
        if (seen.kind === 'forbidden') return write('held', { why: 'forbidden (403)', haltRun: true });
        if (seen.kind === 'refused') throw new Error(`order lookup refused (400) for ${op.key}`);
        if (seen.kind === 'deferred') { await write('deferred', { notBefore: Date.now() + seen.ms }); continue; }
        if (seen.kind === 'processing') { await write('processing'); await sleep(Math.min(1000 * 2 ** patience++, 8000)); continue; }
      }
      if (!task.service.idempotentReplay) return write('held', { why: 'the supplier does not replay keys: a send again could order twice' });
    }
    await write('transmitting', { at: Date.now() });
    const answer = await supplier(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body: bytes }, draft);
    if (answer.kind === 'accepted') return write('accepted', { orderId: answer.id, receipt: answer.id });
    if (answer.kind === 'refused' || answer.kind === 'key_conflict') return write(answer.kind);
    if (answer.kind === 'forbidden') return write('held', { why: 'forbidden (403)', haltRun: true });
    if (answer.kind === 'deferred') {
      await write('deferred', { notBefore: Date.now() + answer.ms + Math.floor((Math.random() * answer.ms) / 4) });
    } else if (answer.kind === 'processing') {
      await write('processing', answer.id !== undefined ? { orderId: answer.id } : {});
      await sleep(Math.min(1000 * 2 ** patience++, 8000));
    } else {
      await write('no_reply', { why: answer.why });
      await sleep(500 * (round + 1));
    }
  }
  if (log.of(op.key).at(-1).state !== 'verifying') await write('verifying');
  await write('held', { why: `no verdict after ${MAX_ROUNDS} rounds` });
}

export default {
  name: 'blind9-k10-purchase-orders',
  async run(env, task) {
    if (!(await takeLock(env.pid))) return;
    const log = new OrderLog();
    await log.open();
    for (const op of task.operations) {
      if (log.halted()) break;
      if (op.kind === 'publish') await placeOrder(op, log, task);
    }
    await log.close();
    await unlink(LOCK);
    await fsyncPath('.');
  },
  inspect(disk) {
    const records = {};
    for (const e of linesOf(disk.readFile(LOG) ?? '')) {
      const r = (records[e.po] ??= { kind: 'operation', history: [] });
      r.history.push(e.state);
      if (e.sha256 !== undefined) r.digest = e.sha256;
      if (e.state === 'accepted') r.receipt = e.receipt;
    }
    return records;
  },
  states: {
    drafted: 'authorized', transmitting: 'dispatched', no_reply: 'outcome_unknown',
    processing: { refines: 'outcome_unknown' }, deferred: { refines: 'outcome_unknown' },
    verifying: 'reconciling', accepted: 'succeeded', refused: 'failed', key_conflict: 'conflict', held: 'blocked',
  },
};
