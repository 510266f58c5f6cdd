/**
 * j06 — an mtime/size guard, then a rename over the user's file (billing API + a notes file the
 * account manager edits, JSONL journal).
 *
 * A monthly billing worker: each invoice of the task is POSTed to `${url}/v1/invoices` with an
 * `Idempotency-Key` header (an invoice object back, status `finalized`; a query by invoice id), with
 * the usual journal (JSONL, fsynced before each step; recovery asks before it sends again). Then it
 * appends a line to `customer-notes.md`, a file the account manager edits by hand:
 *
 *   invoices: drafted → posting → finalized | refused | key_clash | frozen
 *                               → unsure → rechecking → posting again | finalized | held
 *   notes:    read → applied | conflict (the manager's text preserved)
 *
 * The notes guard: stat the file with the read, write the new text to a temp file (fsynced), stat
 * the file again and rename the temp file over it only when `mtimeMs` and `size` are unchanged;
 * otherwise record a conflict and keep the manager's text.
 *
 * DEFECT: a check-then-rename guard. A save that lands after the second stat and before the rename
 * (or between the read and the first stat, or in the same clock tick with the same size) is
 * replaced by the worker's text, and nothing records a conflict: the manager's edit is silently lost.
 * The correct guard never replaces a file it did not read (move it aside and check it, then link the
 * new text into place, which fails if someone saved meanwhile).
 *
 * Citation: git's Documentation/technical/racy-git.txt (git/git) on why a timestamp comparison
 * cannot tell a same-tick change apart; the check-then-rename race itself: no citation (a pattern).
 * Fault that shows it: ONE user save of customer-notes.md after the worker read it and before its
 * rename.
 * Expected: no-silent-overwrite. `npx durasim check`: exit 1.
 */
import { createHash } from 'node:crypto';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const LOG = 'billing.jsonl';
const LOCK = 'billing.lock';
const FINAL = new Set(['finalized', 'refused', 'key_clash', 'frozen', 'held', 'applied', 'conflict']);
const KEY_LIFETIME_MS = 24 * 3600 * 1000;

const sha = (t) => createHash('sha256').update(t).digest('hex');
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

class Journal {
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

async function call(url, init, sent) {
  let response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  } catch {
    return { kind: 'unsure' };
  }
  const json = await response.json().catch(() => null);
  if (response.status === 200 || response.status === 202) {
    const same = json && json.object === 'invoice' && json.amount === sent.amount && json.currency === sent.currency && json.customer === sent.customer;
    const id = same && typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
    if (same && json.status === 'finalized' && id !== undefined) return { kind: 'finalized', id };
    return { kind: 'unsure', id, pending: same && json.status === 'draft' };
  }
  if (response.status === 409) return { kind: 'unsure', pending: true };
  if (response.status === 400 && json?.error?.type === 'idempotency_error') return { kind: 'key_clash' };
  if (response.status === 400) return { kind: 'refused' };
  if (response.status === 403) return { kind: 'frozen' };
  if (response.status === 503) {
    const s = Number(response.headers.get('retry-after'));
    return { kind: 'unsure', waitMs: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'unsure' };
}

async function invoice(op, journal, url) {
  const last = journal.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const add = (state, extra = {}) => journal.add({ key: op.key, state, ...extra });
  if (last === undefined) await add('drafted', { body: op.body });
  const body = journal.of(op.key)[0].body;
  const sent = JSON.parse(body);
  for (let round = 0; round < 10; round++) {
    const state = journal.last(op.key).state;
    if (state !== 'drafted') {
      if (state !== 'rechecking') await add('rechecking');
      const id = journal.of(op.key).findLast((e) => e.id !== undefined)?.id;
      if (id !== undefined) {
        const found = await call(`${url}/v1/invoices/${encodeURIComponent(id)}`, {}, sent);
        if (found.kind === 'finalized') return add('finalized', { id: found.id });
        if (found.pending) { await add('unsure'); await sleep(1000); continue; }
      }
      const firstSent = journal.of(op.key).find((e) => e.state === 'posting')?.at;
      if (firstSent !== undefined && Date.now() - firstSent >= KEY_LIFETIME_MS) return add('held');
      const notBefore = journal.of(op.key).findLast((e) => e.notBefore !== undefined)?.notBefore;
      if (notBefore !== undefined && notBefore > Date.now()) await sleep(notBefore - Date.now());
    }
    await add('posting', { at: Date.now() });
    const answer = await call(`${url}/v1/invoices`, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body }, sent);
    if (answer.kind === 'finalized') return add('finalized', { id: answer.id });
    if (answer.kind !== 'unsure') return add(answer.kind);
    await add('unsure', { ...(answer.id !== undefined ? { id: answer.id } : {}), ...(answer.waitMs !== undefined ? { notBefore: Date.now() + answer.waitMs } : {}) });
    if (answer.waitMs === undefined) await sleep(answer.pending ? 1000 : 500 * (round + 1));
  }
  await add('rechecking');
  await add('held');
}

async function appendNote(op, journal) {
  const last = journal.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const add = (state, extra = {}) => journal.add({ key: op.key, state, path: op.path, ...extra });
  const temp = `${op.path}.billing-tmp`;
  if (last?.state === 'read') {
    // A restart after the read: done if the file holds what we meant to write.
    const now = await readText(op.path);
    if (now !== undefined && sha(now) === last.candidate) return add('applied');
    await unlink(temp).catch(() => undefined);
  }
  const base = (await readText(op.path)) ?? '';
  const before = await stat(op.path).catch(() => undefined);
  await add('read', { base: sha(base), candidate: sha(base + op.append) });
  await writeDurably(temp, base + op.append);
  const after = await stat(op.path).catch(() => undefined);
  if (before?.mtimeMs !== after?.mtimeMs || before?.size !== after?.size) {
    const theirs = (await readText(op.path)) ?? '';
    await add('conflict', { preserved: theirs });
    await unlink(temp);
    return;
  }
  await rename(temp, op.path);
  await fsyncPath('.');
  await add('applied');
}

export default {
  name: 'blind8-j06-mtime-guard-overwrite',
  async run(env, task) {
    if (!(await takeLock(env.pid))) return;
    const journal = new Journal();
    await journal.open();
    for (const op of task.operations) {
      if (journal.entries.some((e) => e.state === 'frozen')) break;
      if (op.kind === 'publish') await invoice(op, journal, task.service.url);
      else if (op.kind === 'edit') await appendNote(op, journal);
    }
    await journal.close();
    await unlink(LOCK);
    await fsyncPath('.');
  },
  inspect(disk) {
    const records = {};
    for (const e of parse(disk.readFile(LOG) ?? '')) {
      if (e.path !== undefined) {
        const r = (records[e.key] ??= { kind: 'file', path: e.path, history: [], preserved: [] });
        r.history.push(e.state);
        if (e.preserved !== undefined) r.preserved.push(e.preserved);
      } else {
        const r = (records[e.key] ??= { kind: 'operation', history: [] });
        r.history.push(e.state);
        if (e.state === 'finalized') r.receipt = e.id;
      }
    }
    return records;
  },
  states: {
    drafted: 'authorized', posting: 'dispatched', unsure: 'outcome_unknown', rechecking: 'reconciling',
    finalized: 'succeeded', refused: 'failed', key_clash: 'conflict', frozen: 'blocked', held: 'blocked',
  },
};
