/**
 * DEFECTIVE COPY of journal.ts, for the example: Log.add appends each record and does not fsync it
 * (appendFile resolved, so it must be on disk — it is only in the page cache). Every other line is
 * journal.ts's. `durasim check --journal examples/node-journal/journal-unsynced.ts` catches it.
 *
 * An operation journal written the way a Node service writes one: node:fs/promises, node:crypto,
 * the global fetch and timers/promises — no call of durasim's env. durasim serves these calls from
 * its simulated world, so this file runs unchanged under `durasim check` and in production.
 *
 * - The log: one JSONL file, every record appended and fsynced before the step it announces. At
 *   start it is read (a torn last line is skipped) and written afresh (temp file, fsync, rename,
 *   folder fsync): after a failed fsync, Linux keeps unsynced bytes readable but never writes them.
 * - A lease (a lock file hard-linked into place, so it is never half-written) makes one worker the
 *   writer; a duplicate delivery waits for it. env.pid is the worker's slot, the one thing Node
 *   cannot tell a process (in production: what the supervisor passes as the worker's id).
 * - publish: authorized → dispatched → POST (same idempotency key, the recorded body) → receipt.
 *   Only a matching, committed receipt is success; no answer is outcome_unknown, then reconciling
 *   by GET. A re-send only when the service promises idempotent replay; otherwise blocked.
 *   400 (invalid arguments) → failed, never retried; 403 (permission revoked) → blocked, and the
 *   task pauses; 503 → the wait it asks for (plus jitter) is recorded and kept before the next send.
 *   A retry budget (task.retryBudget) is counted in the durable dispatched records: spent → blocked.
 * - A cancel (the file task.cancelFile) is looked at before each operation and each send, after any
 *   wait on the way to it: once it is there nothing new starts; an operation never sent is recorded
 *   cancelled, one sent stays in doubt.
 * - A server may call run() again while a call of the same task is under way (a retried request):
 *   the second call waits in this process for the first, then finds its results (the lease is the
 *   process's, so it cannot tell two calls of one process apart).
 * - A node planned from a version of a source (op.input) reads it back before every send (a lost or
 *   refused read is asked again, up to five times): changed, or never read → blocked.
 * - edit: read, move the file aside and re-check it, fsync the candidate under a temporary name,
 *   hard-link it into place (a link never replaces the user's save), fsync the folder, applied.
 */
import { createHash } from 'node:crypto';
import { access, link, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DiskView, EditOperation, JournalAdapter, JournalRecords, LookupOperation, PublishOperation, Task } from 'durasim';

const LOG = 'journal.jsonl';
const LOCK = 'journal.lock';
const FINAL = new Set(['succeeded', 'conflict', 'failed', 'blocked', 'cancelled']);
type Entry = { key: string; state: string; digest?: string | undefined; body?: string | undefined; receipt?: string | undefined; path?: string | undefined; candidate?: string | undefined; preserved?: string | undefined; reason?: string | undefined; nextAttemptAtMs?: number | undefined; paused?: boolean | undefined };
type Verdict = { state: 'succeeded'; receipt: string } | { state: 'conflict' | 'failed' | 'blocked' | 'outcome_unknown' | 'absent'; reason: string; retryAfterMs?: number };

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}
/** A rejection handler that lets these error codes pass, and rethrows any other. */
const unless = (...codes: string[]) => (error: unknown): void => {
  if (!codes.includes(codeOf(error) as string)) throw error;
};
async function removeIfPresent(path: string): Promise<void> {
  await unlink(path).catch(unless('ENOENT'));
}
async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
async function writeDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
function parse(text: string): Entry[] {
  return text.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Entry;
      return typeof entry?.key === 'string' && typeof entry.state === 'string' ? [entry] : [];
    } catch {
      return []; // empty, or torn by a crash mid-append
    }
  });
}

class Log {
  private handle: FileHandle | undefined;
  private readonly byKey = new Map<string, Entry[]>();
  async open(): Promise<void> {
    const text = (await readText(LOG)) ?? '';
    const entries = parse(text);
    if (text !== '') {
      await writeDurably(`${LOG}.rewrite`, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await rename(`${LOG}.rewrite`, LOG);
      await fsyncPath('.');
    }
    this.handle = await open(LOG, 'a');
    if (text === '') {
      await this.handle.sync();
      await fsyncPath('.');
    }
    for (const entry of entries) this.remember(entry);
  }
  history(key: string): Entry[] {
    return this.byKey.get(key) ?? [];
  }
  last(key: string): Entry | undefined {
    return this.history(key).at(-1);
  }
  async add(entry: Entry): Promise<void> {
    await this.handle?.appendFile(`${JSON.stringify(entry)}\n`);
    this.remember(entry);
  }
  async close(): Promise<void> {
    await this.handle?.close();
  }
  private remember(entry: Entry): void {
    this.byKey.set(entry.key, [...this.history(entry.key), entry]);
  }
}

async function takeLease(worker: number): Promise<boolean> {
  const mine = `${LOCK}.${worker}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    await writeDurably(mine, JSON.stringify({ worker }));
    const taken = await link(mine, LOCK).then(() => true, (error: unknown) => {
      if (codeOf(error) !== 'EEXIST') throw error;
      return false;
    });
    await unlink(mine);
    if (taken) {
      await fsyncPath('.');
      return true;
    }
    const owner = await readText(LOCK);
    if (owner !== undefined && (JSON.parse(owner) as { worker: number }).worker === worker) return true; // my own, from before a crash
    if (owner !== undefined) await sleep(100);
  }
  return false;
}

const isReceipt = (body: unknown, key: string, digest: string): body is { receipt: string } => {
  const r = body as Record<string, unknown> | null;
  return typeof r === 'object' && r !== null && r.key === key && r.digest === digest && r.state === 'committed' && typeof r.receipt === 'string' && r.receipt.trim() !== '';
};

async function ask(url: string, init: RequestInit, judge: (response: Response) => Promise<Verdict>): Promise<Verdict> {
  try {
    return await judge(await fetch(url, { ...init, signal: AbortSignal.timeout(2000) }));
  } catch (error) {
    return { state: 'outcome_unknown', reason: `no answer: ${(error as Error).name}` };
  }
}

/** Whether the user cancelled the task (its cancel file exists). */
async function cancelled(task: Task): Promise<boolean> {
  if (task.cancelFile === undefined) return false;
  return access(task.cancelFile).then(() => true, (error: unknown) => {
    if (codeOf(error) !== 'ENOENT') throw error;
    return false;
  });
}

async function publish(op: PublishOperation, log: Log, task: Task): Promise<void> {
  const last = log.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const authorized = log.history(op.key).filter((e) => e.state === 'authorized').pop();
  const [digest, body] = authorized?.body !== undefined ? [authorized.digest as string, authorized.body] : [sha256(op.body), op.body];
  const url = `${task.service.url}/operations/${encodeURIComponent(op.key)}`;
  const record = (state: string, extra: Partial<Entry> = {}): Promise<void> => log.add({ key: op.key, state, digest, ...extra });
  if (last === undefined) await record('authorized', { body });
  else if (last.state === 'authorized' && sha256(op.body) !== digest) return record('blocked', { reason: 'the arguments changed after the intent was recorded' });
  let send = last === undefined || last.state === 'authorized';
  for (let sends = 0; ; ) {
    if (send) {
      // The wait a 503 asked for comes first: what gates the send (the cancel, the input) is looked at after every wait.
      const next = [...log.history(op.key)].reverse().find((e) => e.nextAttemptAtMs !== undefined)?.nextAttemptAtMs;
      const waitMs = next === undefined ? 0 : next - Date.now();
      if (waitMs > 0) await sleep(waitMs);
      const stopForCancel = (): Promise<void> | undefined => (log.history(op.key).some((e) => e.state === 'dispatched') ? undefined : record('cancelled', { reason: 'the task was cancelled' }));
      if (await cancelled(task)) return stopForCancel();
      // The retry budget, counted in what the log holds (a restart does not reset it).
      const sent = (key: string): number => log.history(key).filter((e) => e.state === 'dispatched').length;
      const budget = task.retryBudget;
      if (budget && (sent(op.key) >= budget.perOperation || task.operations.reduce((n, o) => n + (o.kind === 'publish' ? sent(o.key) : 0), 0) >= budget.perTask)) return record('blocked', { reason: 'the retry budget is spent' });
      // The input this node was planned from, read back right before the send: changed → paused for replanning.
      if (op.input) {
        const readInput = (): Promise<Verdict> => ask(`${task.service.url}/resources/${encodeURIComponent(op.input?.resource ?? '')}`, {}, async (response) => {
          const found = (await response.json().catch(() => null)) as { value?: unknown; retryAfterMs?: unknown } | null;
          if (response.status === 200 && typeof found?.value === 'string') return { state: 'succeeded', receipt: found.value };
          return { state: 'outcome_unknown', reason: `status ${response.status}`, ...(typeof found?.retryAfterMs === 'number' ? { retryAfterMs: found.retryAfterMs } : {}) };
        });
        // A read is safe to repeat: a lost or refused answer is asked again (after the wait a 503 names) before the node gives up.
        let source = await readInput();
        let tries = 1;
        for (; source.state !== 'succeeded' && tries < 5; tries++) {
          await sleep(source.state === 'outcome_unknown' && source.retryAfterMs !== undefined ? source.retryAfterMs : 200 * 2 ** tries);
          source = await readInput();
        }
        if (source.state !== 'succeeded' || source.receipt !== op.input.version) return record('blocked', { reason: 'the input it was planned from changed, or could not be read: replan or approve' });
        // The reads backed off: the cancel is looked at again, so no wait lies between the last look and the send.
        if (tries > 1 && (await cancelled(task))) return stopForCancel();
      }
      sends++;
      await record('dispatched');
      const verdict = await ask(url, { method: 'POST', body, headers: { 'idempotency-key': op.key } }, async (response) => {
        if (response.status === 409) return { state: 'conflict', reason: 'another intent holds this key' };
        if (response.status === 400) return { state: 'failed', reason: 'invalid arguments (400): the plan needs fixing' };
        if (response.status === 403) return { state: 'blocked', reason: 'permission revoked (403): the task pauses' };
        if (response.status === 503) {
          const asked = ((await response.json().catch(() => null)) as { retryAfterMs?: unknown } | null)?.retryAfterMs;
          return { state: 'outcome_unknown', reason: 'unavailable (503)', retryAfterMs: typeof asked === 'number' ? asked : 1000 };
        }
        const receipt: unknown = response.status === 200 || response.status === 201 ? await response.json().catch(() => null) : null;
        return isReceipt(receipt, op.key, digest) ? { state: 'succeeded', receipt: receipt.receipt } : { state: 'outcome_unknown', reason: `status ${response.status}` };
      });
      if (verdict.state === 'succeeded') return record('succeeded', { receipt: verdict.receipt });
      if (verdict.state !== 'outcome_unknown') return record(verdict.state, { reason: verdict.reason, ...(verdict.state === 'blocked' ? { paused: true } : {}) });
      const retryAfterMs = verdict.retryAfterMs;
      await record('outcome_unknown', { reason: verdict.reason, ...(retryAfterMs !== undefined ? { nextAttemptAtMs: Date.now() + retryAfterMs + Math.floor((Math.random() * retryAfterMs) / 2) } : {}) });
    }
    await record('reconciling');
    let answer: Verdict = { state: 'outcome_unknown', reason: 'the service offers no query' };
    for (let attempt = 0; task.service.query && attempt < 6 && answer.state !== 'succeeded'; attempt++) {
      if (attempt > 0) await sleep(200 * attempt);
      answer = await ask(url, {}, async (response) => {
        if (response.status === 404) return { state: 'absent', reason: 'the service does not know the key' };
        const found: unknown = response.status === 200 ? await response.json().catch(() => null) : null;
        return isReceipt(found, op.key, digest) ? { state: 'succeeded', receipt: found.receipt } : { state: 'outcome_unknown', reason: `query status ${response.status}` };
      });
    }
    if (answer.state === 'succeeded') return record('succeeded', { receipt: answer.receipt });
    send = (op.retrySafe === true || task.service.idempotentReplay) && sends < 3;
    if (!send) return record('blocked', { reason: `${answer.reason}; a re-send could commit twice` });
  }
}

async function lookup(op: LookupOperation, log: Log, task: Task): Promise<void> {
  const last = log.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const record = (state: string, extra: Partial<Entry> = {}): Promise<void> => log.add({ key: op.key, state, digest: sha256(op.resource), ...extra });
  if (last === undefined) await record('authorized');
  else if (last.state !== 'authorized') await record('reconciling');
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt > 0) await sleep(200 * attempt);
    await record('dispatched');
    const verdict = await ask(`${task.service.url}/resources/${encodeURIComponent(op.resource)}`, {}, async (response) => {
      if (response.status === 404) return { state: 'failed', reason: 'no such resource' };
      const body = (response.status === 200 ? await response.json().catch(() => null) : null) as { resource?: unknown; value?: unknown } | null;
      return body?.resource === op.resource && typeof body.value === 'string' ? { state: 'succeeded', receipt: body.value } : { state: 'outcome_unknown', reason: `status ${response.status}` };
    });
    if (verdict.state === 'succeeded') return record('succeeded', { receipt: verdict.receipt });
    if (verdict.state === 'failed') return record('failed', { reason: verdict.reason });
    await record('outcome_unknown', { reason: verdict.state === 'outcome_unknown' ? verdict.reason : '' });
    await record('reconciling');
  }
  await record('failed', { reason: 'no answer after 4 attempts' });
}

async function edit(op: EditOperation, log: Log): Promise<void> {
  const [aside, temp] = [`${op.path}.aside-${op.key}`, `${op.path}.candidate-${op.key}`];
  const record = (state: string, extra: Partial<Entry>): Promise<void> => log.add({ key: op.key, state, path: op.path, ...extra });
  const cleanUp = async (): Promise<void> => {
    await removeIfPresent(aside);
    await removeIfPresent(temp);
  };
  /** The moved-aside version goes back into place, unless the user saved a newer one meanwhile. */
  const restoreAside = async (): Promise<void> => {
    if (await link(aside, op.path).then(() => true, unless('EEXIST', 'ENOENT'))) await fsyncPath('.');
    await cleanUp();
  };
  const conflict = async (theirs: string, reason: string, restore: boolean): Promise<void> => {
    await record('conflict', { preserved: theirs, reason });
    await (restore ? restoreAside() : cleanUp());
  };
  /** The candidate, fsynced under its temporary name, then linked into place: never over a user's save. */
  const place = async (base: string): Promise<boolean> => {
    await writeDurably(temp, base + op.append);
    const placed = await link(temp, op.path).then(() => true, (error: unknown) => {
      if (codeOf(error) !== 'EEXIST') throw error;
      return false;
    });
    if (!placed) {
      await conflict((await readText(op.path)) ?? '', 'the user saved a new version during delivery', false);
      return false;
    }
    await fsyncPath('.');
    await record('applied', { digest: sha256(base), candidate: sha256(base + op.append) });
    await cleanUp();
    return true;
  };
  const last = log.last(op.key);
  if (last?.state === 'applied') return cleanUp();
  if (last?.state === 'conflict') await restoreAside();
  if (last?.state === 'read') {
    const [current, moved] = [await readText(op.path), await readText(aside)];
    if (current !== undefined && sha256(current) === last.candidate) return void (await record('applied', { digest: last.digest, candidate: last.candidate }), await cleanUp());
    if (moved !== undefined && sha256(moved) !== last.digest) await conflict(moved, 'the file changed after it was read', true);
    else if (moved !== undefined && current === undefined && (await place(moved))) return;
    else if (moved !== undefined && current !== undefined) await conflict(current, 'the user saved a new version during delivery', false);
    else await cleanUp();
  }
  while (log.history(op.key).filter((e) => e.state === 'conflict').length < 3) {
    const base = (await readText(op.path)) ?? '';
    await record('read', { digest: sha256(base), candidate: sha256(base + op.append) });
    await rename(op.path, aside).catch(unless('ENOENT'));
    const moved = await readText(aside);
    if (moved !== undefined && moved !== base) await conflict(moved, 'the file changed after it was read', true);
    else if (await place(base)) return;
  }
}

/** The calls of run() under way, per process (env is one per process) and task: a second one (a retried request) waits for the first. */
const calls = new WeakMap<object, Map<string, Promise<void>>>();

async function oneAtATime(env: object, task: Task, run: () => Promise<void>): Promise<void> {
  const underWay = calls.get(env) ?? new Map<string, Promise<void>>();
  calls.set(env, underWay);
  const before = underWay.get(task.id);
  const mine = before === undefined ? run() : before.catch(() => undefined).then(run);
  underWay.set(task.id, mine);
  try {
    await mine;
  } finally {
    if (underWay.get(task.id) === mine) underWay.delete(task.id);
  }
}

async function runTask(pid: number, task: Task): Promise<void> {
  if (!(await takeLease(pid))) return;
  const log = new Log();
  await log.open();
  for (const op of task.operations) {
    if (task.operations.some((o) => log.history(o.key).some((e) => e.paused))) break; // paused by a revoked permission, until a human resumes it
    if (await cancelled(task)) break;
    await (op.kind === 'publish' ? publish(op, log, task) : op.kind === 'lookup' ? lookup(op, log, task) : edit(op, log));
  }
  // Cancelled: nothing new starts, but a user's file that an interrupted delivery moved aside goes back.
  if (await cancelled(task)) {
    for (const op of task.operations) {
      if (op.kind === 'edit' && (await readText(op.path)) === undefined && (await link(`${op.path}.aside-${op.key}`, op.path).then(() => true, unless('ENOENT')))) await fsyncPath('.');
    }
  }
  await log.close();
  await unlink(LOCK);
  await fsyncPath('.');
}

export const journal: JournalAdapter = {
  name: 'node-journal-unsynced',
  run: (env, task) => oneAtATime(env, task, () => runTask(env.pid, task)),
  inspect(disk: DiskView): JournalRecords {
    const records: JournalRecords = {};
    for (const e of parse(disk.readFile(LOG) ?? '')) {
      const record = (records[e.key] ??= e.path !== undefined ? { kind: 'file', path: e.path, history: [], preserved: [] } : { kind: 'operation', history: [] });
      (record.history as string[]).push(e.state);
      if (record.kind === 'file' && e.preserved !== undefined) record.preserved.push(e.preserved);
      if (record.kind === 'operation' && e.state === 'authorized') record.digest = e.digest;
      if (record.kind === 'operation' && e.state === 'succeeded') record.receipt = e.receipt;
    }
    return records;
  },
};
export default journal;
