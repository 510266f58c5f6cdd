/**
 * BLIND CORPUS — a payouts worker for a payment API (durasim's `payments` preset: the key in an
 * Idempotency-Key header, a query by the payout's id only, keys kept 24 hours), written from
 * examples/contracts/payments/journal.ts and its durableRecords.ts (inlined here), with one defect,
 * taken from a public report:
 *   https://github.com/triggerdotdev/trigger.dev/pull/4953 ("Stripe can remove idempotency keys after
 *   they are at least 24 hours old. Reusing refund-${orderId} after Stripe prunes the key starts a new
 *   request")
 * The defect: a payout in doubt (no answer, no id to query by) is sent again under the same key
 * however long after its first send; once the API forgot the key, that is a second payout.
 * Everything else is the example's (diff against it to see the defect), but for one line the example
 * gets wrong (explore found it there: after its last round it recorded blocked straight from
 * outcome_unknown, a no-state-skip); this copy records reconciling first.
 */
import { link, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DiskView, JournalAdapter, JournalRecords, OperationState, PublishOperation, Task } from 'durasim';

interface Entry {
  key: string;
  state: string;
  /** authorized: the request body, exactly as it is sent (every send sends this one). */
  body?: string | undefined;
  /** succeeded: the service's id for the effect; outcome_unknown: one it named while it was still pending. */
  receipt?: string | undefined;
  /** dispatched: when the worker was about to send it (Date.now()). */
  at?: number | undefined;
  reason?: string | undefined;
  /** outcome_unknown after a 503: not before this time (Date.now()), across restarts. */
  nextAttemptAtMs?: number | undefined;
  /** blocked by a 403: the task pauses until a human resumes it. */
  paused?: boolean | undefined;
}

/** The states after which an operation is done with (a human may take it from there). */
const FINAL = new Set(['succeeded', 'conflict', 'failed', 'blocked']);

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
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

function parseRecords(text: string): Entry[] {
  return text.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Entry;
      return typeof entry?.key === 'string' && typeof entry.state === 'string' ? [entry] : [];
    } catch {
      return []; // empty, or torn by a crash mid-append
    }
  });
}

class Records {
  private handle: FileHandle | undefined;
  private readonly byKey = new Map<string, Entry[]>();
  constructor(private readonly file: string) {}

  async open(): Promise<void> {
    const text = (await readText(this.file)) ?? '';
    const entries = parseRecords(text);
    if (text !== '') {
      await writeDurably(`${this.file}.rewrite`, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await rename(`${this.file}.rewrite`, this.file);
      await fsyncPath('.');
    }
    this.handle = await open(this.file, 'a');
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

  /** Whether a 403 paused the task (it stays paused until a human resumes it). */
  paused(): boolean {
    return [...this.byKey.values()].some((entries) => entries.some((e) => e.paused));
  }

  async add(entry: Entry): Promise<void> {
    await this.handle?.appendFile(`${JSON.stringify(entry)}\n`);
    await this.handle?.sync();
    this.remember(entry);
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }

  private remember(entry: Entry): void {
    this.byKey.set(entry.key, [...this.history(entry.key), entry]);
  }
}

/** Takes the task's lease (waiting for another worker's); false when it never came free. */
async function takeLease(lock: string, worker: number): Promise<boolean> {
  const mine = `${lock}.${worker}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    await writeDurably(mine, JSON.stringify({ worker }));
    const taken = await link(mine, lock).then(() => true, (error: unknown) => {
      if (codeOf(error) !== 'EEXIST') throw error;
      return false;
    });
    await unlink(mine);
    if (taken) {
      await fsyncPath('.');
      return true;
    }
    const owner = await readText(lock);
    if (owner !== undefined && (JSON.parse(owner) as { worker: number }).worker === worker) return true; // mine, from before a crash
    await sleep(100);
  }
  return false;
}

async function releaseLease(lock: string): Promise<void> {
  await unlink(lock);
  await fsyncPath('.');
}

/** The records as durasim's model reads them. */
function inspectRecords(text: string | undefined): JournalRecords {
  const records: JournalRecords = {};
  for (const e of parseRecords(text ?? '')) {
    const record = (records[e.key] ??= { kind: 'operation', history: [] });
    if (record.kind !== 'operation') continue;
    (record.history ??= []).push(e.state as OperationState);
    if (e.state === 'succeeded') record.receipt = e.receipt;
  }
  return records;
}

/** JSON with object keys sorted (how two bodies are compared as one intent). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const LOG = 'payouts.jsonl';
const LOCK = 'payouts.lock';
const TIMEOUT_MS = 2000;
const MAX_ROUNDS = 12;

type Answer =
  | { kind: 'paid'; id: string }
  | { kind: 'pending'; id?: string | undefined; reason: string }
  | { kind: 'conflict' | 'failed' | 'paused'; reason: string }
  | { kind: 'unknown'; reason: string; retryAfterMs?: number };

type Payout = { id?: unknown; object?: unknown; status?: unknown; amount?: unknown; currency?: unknown; metadata?: unknown };

/** Whether the payout the API describes is the one sent (the fields it echoes). */
function isThePayout(payout: Payout, sent: Record<string, unknown>): boolean {
  return payout.object === 'payout' && canonical(payout.amount) === canonical(sent.amount ?? null) && canonical(payout.currency) === canonical(sent.currency ?? null) && canonical(payout.metadata) === canonical(sent.metadata ?? null);
}

/** What a payout object (a created, replayed or fetched one) says. */
function payoutAnswer(payout: Payout | null, sent: Record<string, unknown>): Answer {
  if (payout === null || typeof payout !== 'object' || !isThePayout(payout, sent)) return { kind: 'unknown', reason: 'the answer is not this payout' };
  const id = typeof payout.id === 'string' && payout.id !== '' ? payout.id : undefined;
  if (payout.status === 'paid' && id !== undefined) return { kind: 'paid', id };
  if (payout.status === 'pending') return { kind: 'pending', id, reason: 'the payout is pending' };
  return { kind: 'unknown', reason: `a payout with status ${JSON.stringify(payout.status)} and id ${JSON.stringify(payout.id)}` };
}

async function judge(response: Response, sent: Record<string, unknown>): Promise<Answer> {
  const json = (await response.json().catch(() => null)) as (Payout & { error?: { type?: unknown; code?: unknown } }) | null;
  const error = json?.error;
  if (response.status === 200) return payoutAnswer(json, sent);
  if (response.status === 202) return { kind: 'pending', id: typeof json?.id === 'string' && json.id !== '' ? json.id : undefined, reason: 'accepted, not yet paid' };
  if (response.status === 409 && error?.code === 'request_in_progress') return { kind: 'pending', reason: 'another request with this key is in progress' };
  if (response.status === 400 && error?.type === 'idempotency_error') return { kind: 'conflict', reason: 'the key was used with other parameters' };
  if (response.status === 400) return { kind: 'failed', reason: 'invalid parameters (400): the payout needs fixing' };
  if (response.status === 403) return { kind: 'paused', reason: 'permission refused (403): the task pauses' };
  if (response.status === 503) {
    const seconds = Number(response.headers.get('retry-after'));
    return { kind: 'unknown', reason: 'unavailable (503)', retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000 };
  }
  return { kind: 'unknown', reason: `status ${response.status}` };
}

async function call(url: string, init: RequestInit, sent: Record<string, unknown>): Promise<Answer> {
  try {
    return await judge(await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) }), sent);
  } catch (error) {
    return { kind: 'unknown', reason: `no answer: ${(error as Error).name}` };
  }
}

async function payout(op: PublishOperation, records: Records, task: Task): Promise<void> {
  const last = records.last(op.key);
  if (last && FINAL.has(last.state)) return;
  const authorized = records.history(op.key).find((e) => e.state === 'authorized');
  const body = authorized?.body ?? JSON.stringify(JSON.parse(op.body));
  const sent = JSON.parse(body) as Record<string, unknown>;
  const record = (state: string, extra: Omit<Parameters<Records['add']>[0], 'key' | 'state'> = {}): Promise<void> => records.add({ key: op.key, state, ...extra });
  if (authorized === undefined) await record('authorized', { body });
  else if (last?.state === 'authorized' && canonical(JSON.parse(op.body)) !== canonical(sent)) return record('blocked', { reason: 'the payout changed after it was authorized' });
  const url = `${task.service.url}/v1/payouts`;
  let state = records.last(op.key)?.state ?? 'authorized';
  let id = [...records.history(op.key)].reverse().find((e) => e.receipt !== undefined)?.receipt;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (state !== 'authorized') {
      // In doubt (a restart, a lost or pending answer): ask by the payout's id when one is known.
      if (state !== 'reconciling') await record('reconciling');
      if (id !== undefined) {
        const found = await call(`${url}/${encodeURIComponent(id)}`, {}, sent);
        if (found.kind === 'paid') return record('succeeded', { receipt: found.id });
        if (found.kind === 'pending') {
          await sleep(500);
          state = 'reconciling';
          continue;
        }
      }
      // Sending again under the key is safe while the API replays it (the same key: the same payout).
      if (!task.service.idempotentReplay) return record('blocked', { reason: 'the service does not replay a key: a send again could pay twice; check the payout by hand' });
    }
    const next = [...records.history(op.key)].reverse().find((e) => e.nextAttemptAtMs !== undefined)?.nextAttemptAtMs;
    if (next !== undefined && next > Date.now()) await sleep(next - Date.now());
    await record('dispatched', { at: Date.now() });
    const answer = await call(url, { method: 'POST', headers: { 'Idempotency-Key': op.key, 'content-type': 'application/json' }, body }, sent);
    if (answer.kind === 'paid') return record('succeeded', { receipt: answer.id });
    if (answer.kind === 'conflict' || answer.kind === 'failed') return record(answer.kind, { reason: answer.reason });
    if (answer.kind === 'paused') return record('blocked', { reason: answer.reason, paused: true });
    if (answer.kind === 'pending') {
      if (answer.id !== undefined) id = answer.id;
      await record('outcome_unknown', { reason: answer.reason, ...(id !== undefined ? { receipt: id } : {}) });
      await sleep(1000);
    } else {
      const wait = answer.kind === 'unknown' ? answer.retryAfterMs : undefined;
      await record('outcome_unknown', { reason: answer.reason, ...(wait !== undefined ? { nextAttemptAtMs: Date.now() + wait + Math.floor((Math.random() * wait) / 2) } : {}) });
    }
    state = 'outcome_unknown';
  }
  if (state === 'outcome_unknown') await record('reconciling'); // (not in the example: its history skipped from outcome_unknown to blocked)
  return record('blocked', { reason: `no verdict after ${MAX_ROUNDS} rounds` });
}

export const journal: JournalAdapter = {
  name: 'blind-key-expiry-resend',
  async run(env, task) {
    if (!(await takeLease(LOCK, env.pid))) return;
    const records = new Records(LOG);
    await records.open();
    for (const op of task.operations) {
      if (records.paused()) break; // a 403 paused the task, until a human resumes it
      if (op.kind === 'publish') await payout(op, records, task);
    }
    await records.close();
    await releaseLease(LOCK);
  },
  inspect(disk: DiskView): JournalRecords {
    return inspectRecords(disk.readFile(LOG));
  },
};
export default journal;
