/**
 * k06 — payroll salary transfers through a bank's idempotent API (JSONL journal).
 *
 * The payroll team's transfer worker. Each salary of the task is POSTed to
 * `${url}/v1/payroll/transfers` with an `Idempotency-Key` header (the operation's key). The bank
 * follows the IETF draft: a repeat of the key with the same payload gets the first answer back (201),
 * 409 while a request with the key is being processed, 422 for the key with a different payload; a
 * key is kept 24 hours. A transfer can be fetched by its id only.
 *
 * The journal is payroll.jsonl, one JSON line per step, appended and fsynced before the step it
 * announces (rewritten afresh at every start):
 *
 *   queued → sending → paid | invalid | rejected | on_hold
 *                    → no_answer | pending | retry_after → checking → sending again | paid | on_hold
 *
 * - Every `sending` line keeps the SHA-256 fingerprint of the request it is about to send (the audit
 *   log's "what did we send"), `at` the time; `queued` keeps the first fingerprint.
 * - A transfer is paid only from an answer that echoes the employee, net amount and currency sent,
 *   with an id and status `booked`. In doubt (restart, time-out, 500, garbled answer, 409, pending)
 *   it is sent again under the same key — while the key lives and the bank promises replay; else
 *   on_hold. 503: retry_after with the wait, kept across restarts. 400: invalid. 403: on_hold, the
 *   run stops. 422: rejected (conflict).
 *
 * DEFECT: the worker keeps no copy of the request it sent. At every send — the first and every
 * re-send — it rebuilds the body from the payroll entry it is given now (the task), because "the
 * payroll entry is the source of truth". An entry corrected between a crash and the restart (payroll
 * staff fix the net amount) is re-sent under the SAME key with ANOTHER body: if the first request had
 * not committed, the corrected one commits and is recorded `paid` as the transfer the journal
 * authorized; if it had, the bank answers 422 and the worker records `rejected` though the bank holds
 * exactly the transfer it first authorized and sent.
 *
 * Citation: Adyen/adyen-commercetools#1305 (request fields that change between a timed-out attempt
 * and its retry; duplicate authorizations); ubicloud/ubicloud#5898 (a retry with other parameters
 * under the same client token: IdempotentParameterMismatch); draft-ietf-httpapi-idempotency-key-
 * header-07 (a key MUST NOT be reused with a different payload).
 * Fault that shows it: ONE `intent` fault — a kill after a transfer's intent is recorded (notably
 * after its `sending` line, before or after the POST) and a restart with a changed task.
 * Expected: recorded-intent-wins; one-effect-per-key and/or truthful-outcome (conflict while the bank
 * holds only the recorded intent). `npx durasim check`: exit 1.
 */
import { createHash } from 'node:crypto';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const LOG = 'payroll.jsonl';
const LOCK = 'payroll.lock';
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const TIMEOUT_MS = 3000;
const MAX_ROUNDS = 12;
const FINAL = new Set(['paid', 'invalid', 'rejected', 'on_hold']);

const codeOf = (e) => e?.code;
const canonical = (v) => Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`
  : JSON.stringify(v) ?? 'null';
const fingerprint = (body) => createHash('sha256').update(canonical(JSON.parse(body))).digest('hex');

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
export function readLines(text) {
  return text.split('\n').flatMap((line) => {
    try { const e = JSON.parse(line); return typeof e?.key === 'string' && typeof e.state === 'string' ? [e] : []; } catch { return []; }
  });
}

class PayrollLog {
  lines = [];
  handle;
  async open() {
    const text = (await readText(LOG)) ?? '';
    this.lines = readLines(text);
    if (text !== '') {
      await writeDurably(`${LOG}.new`, this.lines.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await rename(`${LOG}.new`, LOG);
      await fsyncPath('.');
    }
    this.handle = await open(LOG, 'a');
    if (text === '') { await this.handle.sync(); await fsyncPath('.'); }
  }
  of(key) { return this.lines.filter((e) => e.key === key); }
  stopped() { return this.lines.some((e) => e.stopRun); }
  async write(line) {
    await this.handle.appendFile(`${JSON.stringify(line)}\n`);
    await this.handle.sync();
    this.lines.push(line);
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

/** The transfer request for a payroll entry, as the bank wants it. */
const transferRequest = (entry) => JSON.stringify(JSON.parse(entry.body));

function transferAnswer(json, sent) {
  if (json === null || typeof json !== 'object') return { kind: 'unknown', why: 'no transfer in the answer' };
  if (!['employee_ref', 'net_amount', 'currency'].every((f) => canonical(json[f] ?? null) === canonical(sent[f] ?? null))) return { kind: 'unknown', why: 'not this transfer' };
  const id = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
  if (json.status === 'booked' && id !== undefined) return { kind: 'paid', id };
  if (json.status === 'processing') return { kind: 'pending', id };
  return { kind: 'unknown', why: `status ${JSON.stringify(json.status)}` };
}

async function bank(url, init, sent) {
  let res;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    return { kind: 'unknown', why: `no answer (${e?.name})` };
  }
  const json = await res.json().catch(() => null);
  const type = typeof json?.type === 'string' ? json.type : '';
  if (res.status === 200 || res.status === 201) return transferAnswer(json, sent);
  if (res.status === 202) return { kind: 'pending', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined };
  if (res.status === 409 && type.endsWith('/request-in-progress')) return { kind: 'pending' };
  if (res.status === 422) return { kind: 'rejected' };
  if (res.status === 400) return { kind: 'invalid' };
  if (res.status === 403) return { kind: 'forbidden' };
  if (res.status === 503) {
    const s = Number(res.headers.get('retry-after'));
    return { kind: 'retry_after', ms: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unknown', why: `HTTP ${res.status}` };
}

async function payEmployee(op, log, task) {
  const done = log.of(op.key).at(-1);
  if (done && FINAL.has(done.state)) return;
  const write = (state, extra = {}) => log.write({ key: op.key, state, ...extra });
  if (done === undefined) await write('queued', { fingerprint: fingerprint(transferRequest(op)) });
  const url = `${task.service.url}/v1/payroll/transfers`;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const lines = log.of(op.key);
    const state = lines.at(-1).state;
    const backoff = Math.min(1000 * 2 ** round, 8000);
    // The payroll entry is the source of truth: the request is built from it at every send.
    const body = transferRequest(op);
    const sent = JSON.parse(body);
    if (state !== 'queued') {
      if (state !== 'checking') await write('checking');
      const notBefore = lines.findLast((e) => e.notBefore !== undefined)?.notBefore;
      if (notBefore !== undefined && notBefore > Date.now()) await sleep(notBefore - Date.now());
      const pendingId = lines.findLast((e) => e.pendingId !== undefined)?.pendingId;
      if (pendingId !== undefined) {
        const seen = await bank(`${url}/${encodeURIComponent(pendingId)}`, {}, sent);
        if (seen.kind === 'paid') return write('paid', { transferId: seen.id });
        if (seen.kind === 'forbidden') return write('on_hold', { why: 'forbidden (403)', stopRun: true });
        if (seen.kind === 'invalid') throw new Error(`transfer lookup refused (400) for ${op.key}`);
        if (seen.kind === 'retry_after') { await write('retry_after', { notBefore: Date.now() + seen.ms }); continue; }
        if (seen.kind === 'pending') { await write('pending'); await sleep(backoff); continue; }
      }
      if (!task.service.idempotentReplay) return write('on_hold', { why: 'the bank does not replay keys' });
      const firstSentAt = lines.find((e) => e.state === 'sending')?.at;
      if (firstSentAt !== undefined && Date.now() - firstSentAt >= KEY_LIFETIME_MS) return write('on_hold', { why: 'the idempotency key may have expired' });
    }
    await write('sending', { at: Date.now(), fingerprint: fingerprint(body) });
    const answer = await bank(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body }, sent);
    if (answer.kind === 'paid') return write('paid', { transferId: answer.id });
    if (answer.kind === 'invalid' || answer.kind === 'rejected') return write(answer.kind);
    if (answer.kind === 'forbidden') return write('on_hold', { why: 'forbidden (403)', stopRun: true });
    if (answer.kind === 'retry_after') {
      await write('retry_after', { notBefore: Date.now() + answer.ms + Math.floor((Math.random() * answer.ms) / 4) });
    } else if (answer.kind === 'pending') {
      await write('pending', answer.id !== undefined ? { pendingId: answer.id } : {});
      await sleep(backoff);
    } else {
      await write('no_answer', { why: answer.why });
      await sleep(500 * (round + 1));
    }
  }
  if (log.of(op.key).at(-1).state !== 'checking') await write('checking');
  await write('on_hold', { why: `no verdict after ${MAX_ROUNDS} rounds` });
}

export default {
  name: 'blind9-k06-payroll-transfers',
  async run(env, task) {
    if (!(await takeLock(env.pid))) return;
    const log = new PayrollLog();
    await log.open();
    for (const op of task.operations) {
      if (log.stopped()) break;
      if (op.kind === 'publish') await payEmployee(op, log, task);
    }
    await log.close();
    await unlink(LOCK);
    await fsyncPath('.');
  },
  inspect(disk) {
    const records = {};
    for (const e of readLines(disk.readFile(LOG) ?? '')) {
      const r = (records[e.key] ??= { kind: 'operation', history: [] });
      r.history.push(e.state);
      if (e.fingerprint !== undefined) r.digest = e.fingerprint;
      if (e.state === 'paid') r.receipt = e.transferId;
    }
    return records;
  },
  states: {
    queued: 'authorized', sending: 'dispatched', no_answer: 'outcome_unknown',
    pending: { refines: 'outcome_unknown' }, retry_after: { refines: 'outcome_unknown' },
    checking: 'reconciling', paid: 'succeeded', invalid: 'failed', rejected: 'conflict', on_hold: 'blocked',
  },
};
