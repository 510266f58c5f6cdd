/**
 * j02 — dead-lettered after two attempts without an answer (ietf-style bank-transfer API, JSONL journal).
 *
 * A supplier-transfer worker: each transfer of the task is POSTed to `${url}/v1/transfers` with an
 * `Idempotency-Key` header; the API answers 201 `{ id, status }`, replays the same key, answers 409
 * `request-in-progress` while a request with the key is under way, 422 for a key reused with other
 * parameters, and offers a query by the transfer's id only. The worker's journal is a JSONL file,
 * every line appended and fsynced before the step it announces; one worker at a time (a lock file
 * hard-linked into place).
 *
 *   queued → sending → settled | refused | key_clash | frozen
 *                    → no_answer → retrying → sending again | settled | dead | held
 *
 * A lost answer is retried under the SAME key (correct: the API replays it) and the attempts that
 * ended without a verdict ("strikes") are counted in the durable journal, across restarts.
 *
 * DEFECT: after two strikes the worker dead-letters the transfer as `dead` — mapped to `failed` — the
 * way a job queue moves an exhausted job to its dead set, and the finance team is told the transfer
 * failed. If the first attempt's answer was lost after the bank committed it, the transfer happened.
 * The right end is `held` (blocked: a human looks), since nothing proved that nothing happened.
 *
 * Citation: Sidekiq's retry / Dead set behaviour (https://github.com/sidekiq/sidekiq/wiki/Error-Handling)
 * and its advice that jobs must be idempotent (https://github.com/sidekiq/sidekiq/wiki/Best-Practices);
 * reporting the dead-lettered payment as failed: no citation (a real-world pattern).
 * Faults that show it: TWO — the first POST's answer lost after the commit (drop-after-commit,
 * 500-after-commit, reset-after-commit, a cut body) and the re-send's answer lost or failed too
 * (any non-success). Any single one is recovered by the replay of the re-send.
 * Expected: truthful-outcome (failed while the service holds the effect and no 4xx was heard);
 * failure-class-respected too if a strike was a 503. `npx durasim check`: exit 1.
 */
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

const LOG = 'transfers.jsonl';
const LOCK = 'transfers.lock';
const FINAL = new Set(['settled', 'refused', 'key_clash', 'frozen', 'dead', 'held']);
const MAX_STRIKES = 2;
const KEY_LIFETIME_MS = 24 * 3600 * 1000;

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

async function call(url, init) {
  let response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
  } catch (e) {
    return { kind: 'strike', reason: `no answer (${e?.name})` };
  }
  const json = await response.json().catch(() => null);
  const type = typeof json?.type === 'string' ? json.type : '';
  if ((response.status === 200 || response.status === 201 || response.status === 202) && json && typeof json === 'object') {
    const id = typeof json.id === 'string' && json.id !== '' ? json.id : undefined;
    if (json.status === 'committed' && id !== undefined) return { kind: 'settled', id };
    if (json.status === 'pending') return { kind: 'pending', id };
    return { kind: 'strike', reason: 'unreadable transfer' };
  }
  if (response.status === 409 && type.includes('request-in-progress')) return { kind: 'pending' };
  if (response.status === 422) return { kind: 'key_clash' };
  if (response.status === 400) return { kind: 'refused' };
  if (response.status === 403) return { kind: 'frozen' };
  if (response.status === 503) {
    const s = Number(response.headers.get('retry-after'));
    return { kind: 'strike', reason: 'unavailable', waitMs: Number.isFinite(s) && s >= 0 ? s * 1000 : 1000 };
  }
  return { kind: 'strike', reason: `status ${response.status}` };
}

async function transfer(op, journal, url) {
  const last = journal.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const add = (state, extra = {}) => journal.add({ key: op.key, state, ...extra });
  if (last === undefined) await add('queued', { body: op.body });
  const body = journal.of(op.key)[0].body;
  for (let round = 0; round < 10; round++) {
    const state = journal.last(op.key).state;
    const id = journal.of(op.key).findLast((e) => e.id !== undefined)?.id;
    if (state !== 'queued') {
      if (state !== 'retrying') await add('retrying');
      if (id !== undefined) {
        const found = await call(`${url}/v1/transfers/${encodeURIComponent(id)}`, {});
        if (found.kind === 'settled') return add('settled', { id: found.id });
      }
      const strikes = journal.of(op.key).filter((e) => e.strike).length;
      // Exhausted: dead-letter it, as the queue does with a job out of retries.
      if (strikes >= MAX_STRIKES) return add('dead', { reason: `${strikes} attempts without an answer` });
      const firstSent = journal.of(op.key).find((e) => e.state === 'sending')?.at;
      if (firstSent !== undefined && Date.now() - firstSent >= KEY_LIFETIME_MS) return add('held', { reason: 'the key may be forgotten' });
      const notBefore = journal.of(op.key).findLast((e) => e.notBefore !== undefined)?.notBefore;
      if (notBefore !== undefined && notBefore > Date.now()) await sleep(notBefore - Date.now());
    }
    await add('sending', { at: Date.now() });
    const answer = await call(`${url}/v1/transfers`, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body });
    if (answer.kind === 'settled') return add('settled', { id: answer.id });
    if (answer.kind === 'refused' || answer.kind === 'key_clash' || answer.kind === 'frozen') return add(answer.kind);
    if (answer.kind === 'pending') {
      await add('no_answer', { ...(answer.id !== undefined ? { id: answer.id } : {}), reason: 'pending' });
      await sleep(1000);
    } else {
      await add('no_answer', { strike: true, reason: answer.reason, ...(answer.waitMs !== undefined ? { notBefore: Date.now() + answer.waitMs } : {}) });
      if (answer.waitMs === undefined) await sleep(500 * (round + 1));
    }
  }
  await add('retrying');
  await add('held', { reason: 'no verdict' });
}

export default {
  name: 'blind8-j02-dead-letter-after-timeouts',
  async run(env, task) {
    if (!(await takeLock(env.pid))) return;
    const journal = new Journal();
    await journal.open();
    for (const op of task.operations) {
      if (journal.entries.some((e) => e.state === 'frozen')) break;
      if (op.kind === 'publish') await transfer(op, journal, task.service.url);
    }
    await journal.close();
    await unlink(LOCK);
    await fsyncPath('.');
  },
  inspect(disk) {
    const records = {};
    for (const e of parse(disk.readFile(LOG) ?? '')) {
      const r = (records[e.key] ??= { kind: 'operation', history: [] });
      r.history.push(e.state);
      if (e.state === 'settled') r.receipt = e.id;
    }
    return records;
  },
  states: {
    queued: 'authorized', sending: 'dispatched', no_answer: 'outcome_unknown', retrying: 'reconciling',
    settled: 'succeeded', refused: 'failed', dead: 'failed', key_clash: 'conflict', frozen: 'blocked', held: 'blocked',
  },
};
