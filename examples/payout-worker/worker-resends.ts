/**
 * THE SAME WORKER WITH ONE DEFECT, written down before durasim was run on it: after a restart, a
 * payout the journal left in flight (sending, unknown, waiting, checking) is sent again at once,
 * without looking it up. The service's replay usually saves it; but a key it forgot (a restart
 * of its idempotency store, a key past its time-to-live) pays twice, so durasim should find the
 * blind re-send (retry-safe-only), and a second payout where the key was forgotten.
 * (Since 2026-12-07 the payments contract's promise — keys kept a day — is taken at its word: a
 * send again under the key within the day is how that API is asked, no finding, and its service
 * restarts keep their keys. durasim finds this copy by what its defect costs under that contract:
 * a second payout once the key was a day old, and a waiting payout sent again at once after a
 * restart, before its 503's wait was over: payoutWorker.test.ts.)
 *
 * A payout worker as a team runs it in production — nothing of durasim's in it. It pays every
 * payout of payouts.json through the payments API (POST /v1/payouts with an Idempotency-Key
 * header and a JSON body), and keeps its own journal of what it did in payouts.journal, one JSON
 * line per step, fsynced before it acts on it:
 *
 *   queued → sending → paid | rejected | duplicate | paused | held
 *                    → unknown | waiting → checking → paid | sending again
 *
 * - queued is written with the payout's amount before the first send; sending before every send.
 * - No answer, a 500, a 409 "request in progress" or a body it cannot trust: unknown. A 429/503:
 *   waiting, with the time the Retry-After asks (kept in the journal: a restart waits too).
 * - Whatever was in flight (sending, unknown, waiting, checking) is checked before it is sent again: the
 *   payout is looked up by its metadata id (GET /v1/payouts?metadata_id=…); found, it is paid;
 *   not found, it is sent again under the same key. A key may be forgotten after a day, so a
 *   re-send without checking could pay twice.
 * - 400 idempotency_error: another payout holds the key (duplicate); a lookup never decides that (a
 *   payout under the id that is not this one is asked again by a send). Any other 400: rejected. 403: paused, and the worker stops paying
 *   until a human looks (the next start stops too). Six tries without an answer: held.
 * - One worker at a time: a lock file (hard-linked into place, so never half-written) names the
 *   worker slot that holds it; a second worker waits for it, and a restarted one takes its own back.
 */
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export const JOURNAL = 'payouts.journal';
const LOCK = 'payouts.lock';
const FINAL = new Set(['paid', 'rejected', 'duplicate', 'paused', 'held']);
const IN_FLIGHT = new Set(['sending', 'unknown', 'waiting', 'checking']);

export interface Payout {
  id: string;
  amount: number;
  currency: string;
}
export interface Entry {
  id: string;
  state: string;
  amount?: number;
  payout?: string;
  notBefore?: number;
  /** On sending: when (the API forgets a key a day after its first use). */
  at?: number;
}
type Answer = { state: 'paid'; payout: string } | { state: 'unknown' | 'rejected' | 'duplicate' | 'paused' | 'absent' | 'other' } | { state: 'waiting'; notBefore: number };
/** How long the payments API keeps an idempotency key after its first use. */
const KEY_LIFETIME_MS = 24 * 3600 * 1000;

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

async function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch((error: unknown) => {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  });
}

async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  await handle.sync().finally(() => handle.close());
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

/** The journal's entries; a line torn by a crash mid-append is no entry. */
export function parseJournal(text: string): Entry[] {
  return text.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Entry;
      return typeof entry?.id === 'string' && typeof entry.state === 'string' ? [entry] : [];
    } catch {
      return [];
    }
  });
}

class Journal {
  private readonly entries: Entry[] = [];
  private handle: Awaited<ReturnType<typeof open>> | undefined;

  async open(): Promise<void> {
    const text = await readText(JOURNAL);
    this.entries.push(...parseJournal(text ?? ''));
    // Written afresh (temp, fsync, rename, folder fsync): a torn tail is gone before anything is appended after it.
    await writeDurably(`${JOURNAL}.tmp`, this.entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
    await rename(`${JOURNAL}.tmp`, JOURNAL);
    await syncPath('.');
    this.handle = await open(JOURNAL, 'a');
  }
  last(id: string): Entry | undefined {
    return this.entries.findLast((e) => e.id === id);
  }
  first(id: string, state: string): Entry | undefined {
    return this.entries.find((e) => e.id === id && e.state === state);
  }
  any(state: string): boolean {
    return this.entries.some((e) => e.state === state);
  }
  async add(entry: Entry): Promise<void> {
    await this.handle?.appendFile(`${JSON.stringify(entry)}\n`);
    await this.handle?.sync();
    this.entries.push(entry);
  }
  async close(): Promise<void> {
    await this.handle?.close();
  }
}

async function takeLock(me: number): Promise<boolean> {
  const mine = `${LOCK}.${me}`;
  await writeDurably(mine, String(me));
  try {
    for (let attempt = 0; attempt < 600; attempt++) {
      const taken = await link(mine, LOCK).then(() => true, (error: unknown) => {
        if (codeOf(error) !== 'EEXIST') throw error;
        return false;
      });
      if (taken) {
        await syncPath('.');
        return true;
      }
      if ((await readText(LOCK)) === String(me)) return true; // mine, from before a crash
      await sleep(1000);
    }
    return false;
  } finally {
    await unlink(mine);
  }
}

/** When a Retry-After header (seconds, or an HTTP date) lets the next try go. */
function retryAt(response: Response): number {
  const said = response.headers.get('retry-after') ?? '1';
  const seconds = Number(said);
  return Number.isFinite(seconds) ? Date.now() + seconds * 1000 : Date.parse(said) || Date.now() + 1000;
}

async function ask(url: string, init: RequestInit, judge: (response: Response, body: any) => Answer): Promise<Answer> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    return judge(response, await response.json().catch(() => null));
  } catch {
    return { state: 'unknown' };
  }
}

/** The payout the service holds is this one (its id, amount and currency); paid, with its own id. */
const isThis = (found: any, payout: Payout): boolean => found?.metadata?.id === payout.id && found.amount === payout.amount && found.currency === payout.currency;
const isOurs = (found: any, payout: Payout): boolean => isThis(found, payout) && found.status === 'paid' && typeof found.id === 'string' && found.id !== '';

function send(baseUrl: string, payout: Payout): Promise<Answer> {
  const body = JSON.stringify({ amount: payout.amount, currency: payout.currency, metadata: { id: payout.id } });
  return ask(`${baseUrl}/v1/payouts`, { method: 'POST', headers: { 'Idempotency-Key': payout.id, 'Content-Type': 'application/json' }, body }, (response, found) => {
    if (response.status === 200 && isOurs(found, payout)) return { state: 'paid', payout: found.id };
    if (response.status === 400) return { state: found?.error?.type === 'idempotency_error' ? 'duplicate' : 'rejected' };
    if (response.status === 403) return { state: 'paused' };
    if (response.status === 429 || response.status === 503) return { state: 'waiting', notBefore: retryAt(response) };
    return { state: 'unknown' };
  });
}

function check(baseUrl: string, payout: Payout): Promise<Answer> {
  return ask(`${baseUrl}/v1/payouts?metadata_id=${encodeURIComponent(payout.id)}`, {}, (response, found) => {
    if (response.status !== 200 || !Array.isArray(found?.data)) return { state: 'unknown' };
    const ours = found.data.find((p: any) => isOurs(p, payout));
    if (ours) return { state: 'paid', payout: ours.id };
    if (found.data.length === 0) return { state: 'absent' };
    // This one, not paid yet (pending): ask again later. Something else under its id: while the key lives, the send's
    // own answer (a replay, or 400 idempotency_error when another payout holds the key) is the one to trust.
    return found.data.some((p: any) => isThis(p, payout)) ? { state: 'unknown' } : { state: 'other' };
  });
}

async function pay(payout: Payout, journal: Journal, baseUrl: string): Promise<void> {
  let last = journal.last(payout.id);
  if (last && FINAL.has(last.state)) return;
  if (last === undefined) await journal.add((last = { id: payout.id, state: 'queued', amount: payout.amount }));
  let others = 0;
  for (let tries = 0; tries < 6; tries++) {
    // (the defect: what a crash left in flight is sent again at once, without looking it up first)
    if (IN_FLIGHT.has(last.state) && tries > 0) {
      if (last.notBefore !== undefined && last.notBefore > Date.now()) await sleep(last.notBefore - Date.now());
      await journal.add({ id: payout.id, state: 'checking' });
      const found = await check(baseUrl, payout);
      if (found.state === 'paid') return journal.add({ id: payout.id, state: 'paid', payout: found.payout });
      // Another payout under its id: asked once more (an answer can be garbled); seen twice, it is there. While the key
      // lives, a send asks the service itself (400 idempotency_error: a duplicate); once it may be forgotten, a send
      // would pay again, so it is a duplicate at once.
      if (found.state === 'other') others++;
      const firstSent = journal.first(payout.id, 'sending')?.at;
      if (others >= 2 && firstSent !== undefined && Date.now() - firstSent >= KEY_LIFETIME_MS) return journal.add({ id: payout.id, state: 'duplicate' });
      if (found.state !== 'absent' && !(found.state === 'other' && others >= 2)) {
        await journal.add((last = { id: payout.id, state: 'unknown' }));
        await sleep(500 * (tries + 1));
        continue;
      }
    }
    await journal.add({ id: payout.id, state: 'sending', at: Date.now() });
    const answer = await send(baseUrl, payout);
    if (answer.state === 'paid') return journal.add({ id: payout.id, state: 'paid', payout: answer.payout });
    if (answer.state === 'rejected' || answer.state === 'duplicate' || answer.state === 'paused') return journal.add({ id: payout.id, state: answer.state });
    await journal.add((last = answer.state === 'waiting' ? { id: payout.id, state: 'waiting', notBefore: answer.notBefore } : { id: payout.id, state: 'unknown' }));
    if (answer.state === 'unknown') await sleep(500 * (tries + 1));
  }
  // Given up: one last look, then held for a human.
  await journal.add({ id: payout.id, state: 'checking' });
  const found = await check(baseUrl, payout);
  await journal.add(found.state === 'paid' ? { id: payout.id, state: 'paid', payout: found.payout } : { id: payout.id, state: 'held' });
}

/**
 * Pays every payout of payouts.json that is not paid yet. `baseUrl` is the payments API;
 * `workerId` the worker's slot (what the supervisor hands it, e.g. WORKER_ID): a restarted worker
 * takes its own lock back.
 */
export async function payAll(baseUrl: string, workerId: number): Promise<void> {
  if (!(await takeLock(workerId))) return;
  const { payouts } = JSON.parse((await readText('payouts.json')) ?? '{"payouts":[]}') as { payouts: Payout[] };
  const journal = new Journal();
  await journal.open();
  for (const payout of payouts) {
    if (journal.any('paused')) break; // a revoked permission pauses every payout until a human looks
    await pay(payout, journal, baseUrl);
  }
  await journal.close();
  await unlink(LOCK);
  await syncPath('.');
}
