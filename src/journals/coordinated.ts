/**
 * The coordinated reference journal (seed 002): the reference journal's operations, coordinated
 * through the shared store (env.store) instead of a lock file and a local log.
 *
 * - For a task that edits files, the local lock file (as the reference's) keeps the workers of this
 *   machine off each other's file steps; a paused worker keeps it, so no other worker here edits
 *   the files meanwhile. Everything else is coordinated through the store alone, as across machines.
 * - The task's lease (the store lease named after the task id) makes one worker the advancer; a
 *   duplicate delivery or a restarted worker polls until it is free, then reads the saved events.
 * - The records are append-only events in the store, one key each (<task id>/events/<n>, written
 *   only if absent): taking the next slot is the compare-and-set that advances the task.
 * - Every event is written under the lease (the store applies it only while this worker's token
 *   holds), so a pause between a check and the write cannot advance the task for a lost holder.
 * - Before every event, every request and every query the lease is renewed — on the store's clock, never judged by
 *   the worker's own — and every POST carries the lease's fencing token. A store retry that waited
 *   after the cancel and the planned input were looked at makes them be looked at again before the
 *   POST (the gate rule).
 * - A refused slot (another worker advanced), a renewal refused because another worker holds the
 *   lease, or a 412 from the service (a successor's token has been heard) stops the worker at once:
 *   it sends nothing more, and an operation it left in doubt is reconciled from the events by the
 *   next holder. After a refused slot its view was stale, so it ends with an error and the
 *   supervisor restarts it to read the events afresh.
 * - After each event, a projection (<task id>/projection: how many events, and their digest) for a
 *   quick resume; on resume it must fold the events it claims, or the task is quarantined
 *   (<task id>/quarantine): advanced no further, with a user's file moved aside put back in place.
 * - A store call that timed out may have been applied: the slot is read back before anything else.
 *   A store that stays silent, or a lease that expired, ends the incarnation with an error: the
 *   supervisor restarts it, and the new incarnation takes the lease again and resumes.
 */
import type { JournalAdapter, JournalRecords, LookupOperation, StoreView } from '../../model/contract/contract.js';
import { digestOf } from '../../model/contract/digest.js';
import { acquireLease, pollDelayMs, recordsFromLines, releaseLease, type LogRecord } from './jsonlLog.js';
import { ReferenceRun, type Intent, type QueryAnswer, type Verdict } from './reference.js';
import { oneCallAtATime } from './oneCallAtATime.js';

/** Thrown to stop the worker at once (lost the race, or the lease). */
class Stop extends Error {}

/** Longer than any one wait of the worker (a request timeout, a backoff, the store's retries), renewed before each. */
const LEASE_TTL_MS = 10_000;
const STORE_RETRIES = 4;
const isTimeout = (error: unknown): boolean => error instanceof Error && error.name === 'StoreTimeoutError';
const slotKey = (taskId: string, n: number): string => `${taskId}/events/${String(n).padStart(6, '0')}`;
/**
 * The tasks this process quarantined, per env (one per process): a later call of run() in the same
 * process (a concurrent call served after the first) advances none of them — it would otherwise
 * wait out the lease the quarantine left and resume on a read that may be stale.
 */
const quarantinedHere = new WeakMap<object, Set<string>>();

export class CoordinatedRun extends ReferenceRun {
  protected token = 0;
  /** The lease's expiry as the store granted it (store's clock). */
  protected leaseExpiresAtMs = 0;
  protected next = 0;
  /** The events' values, in slot order: what the projection folds. */
  protected events: string[] = [];
  protected projectionVersion: number | undefined;

  override async execute(): Promise<void> {
    if (quarantinedHere.get(this.env)?.has(this.task.id)) return;
    // The files it edits are this machine's: the local lock file keeps a paused worker's file steps
    // from interleaving with another worker's here (no fencing token reaches a rename).
    const local = this.task.operations.some((op) => op.kind === 'edit');
    if (local && !(await acquireLease(this.env, { pollMs: this.settings.leasePollMs, attempts: this.settings.leaseAttempts }))) return;
    if (!(await this.acquire())) return;
    try {
      for (const record of await this.loadRecords()) this.remember(record);
      for (const op of this.task.operations) if (!this.paused() && !(await this.cancelSeen())) await this.operation(op);
      if (this.cancelled) await this.settleAfterCancel();
      await this.env.store.lease.release(this.task.id, { token: this.token });
      if (local) await releaseLease(this.env);
    } catch (error) {
      if (!(error instanceof Stop)) throw error;
      // Stopped for good (lost to another worker, or quarantined): this worker does nothing more
      // here, so the files are free for the others of this machine.
      if (local) await releaseLease(this.env);
    }
  }

  /** This journal stages no temp files: its records live in the store, and the temp folder is local to one machine. */
  protected override async stageTemp(): Promise<void> {}

  /** Polls for the task's lease; false when it stays held (another worker is doing the task). */
  protected async acquire(): Promise<boolean> {
    for (let attempt = 0; attempt < this.settings.leaseAttempts; attempt++) {
      if (attempt > 0) await this.sleep(pollDelayMs(this.settings.leasePollMs, attempt - 1));
      try {
        const granted = await this.env.store.lease.acquire(this.task.id, { holder: `worker-${this.env.pid}`, ttlMs: LEASE_TTL_MS });
        if (granted.ok) {
          this.token = granted.lease.token;
          this.leaseExpiresAtMs = granted.lease.expiresAtMs;
          return true;
        }
      } catch (error) {
        if (!isTimeout(error)) throw error; // a grant we never heard of expires by itself
      }
    }
    return false;
  }

  /** A store call, asked again while it times out; a store that stays silent ends the incarnation with an error, so the supervisor restarts it. */
  protected async patiently<T>(what: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (!isTimeout(error)) throw error;
        if (attempt + 1 >= STORE_RETRIES) throw new Error(`the store did not answer ${what} ${STORE_RETRIES} times`);
        await this.sleep(this.settings.queryBackoffMs * (attempt + 1));
      }
    }
  }

  /** Still the holder, renewed on the store's clock. Another holder: stop. An expired lease: restart and take it again. */
  protected async renew(): Promise<void> {
    const renewed = await this.patiently('a renewal', () => this.env.store.lease.renew(this.task.id, { token: this.token, ttlMs: LEASE_TTL_MS }));
    if (renewed.ok) return;
    // Another worker holds it: that worker finishes the task. Anyone else (an operator who took the
    // task over): end with an error, so a new incarnation waits for the lease and resumes after them.
    if (renewed.reason === 'not-holder' && renewed.lease?.holder.startsWith('worker-')) throw new Stop(`the lease is ${renewed.lease.holder}'s now`);
    throw new Error(`the lease is gone (${renewed.reason}); a new incarnation takes it again`);
  }

  protected override async loadRecords(): Promise<LogRecord[]> {
    // A projection that does not fold the events read with it is read again (one of the two reads may
    // have been stale); if it still does not, the task is quarantined instead of resumed. A projection
    // older than one already read (a lower version, or none after one) is a stale read: it clears nothing.
    let newest = 0;
    for (let attempt = 0; ; attempt++) {
      const events = await this.patiently('a list of the events', () => this.env.store.list(`${this.task.id}/events/`));
      const projection = await this.patiently('a read of the projection', () => this.env.store.get(`${this.task.id}/projection`));
      const values = events.map((e) => e.value);
      const folded = projection ? (JSON.parse(projection.value) as { events: number }) : undefined;
      const current = (projection?.version ?? 0) >= newest;
      newest = Math.max(newest, projection?.version ?? 0);
      const consistent = current && (!folded || (folded.events <= values.length && projectionOf(values.slice(0, folded.events)) === projection?.value));
      if (consistent) {
        this.next = events.length;
        this.events = values;
        this.projectionVersion = projection?.version;
        return events.map((e) => JSON.parse(e.value) as LogRecord);
      }
      if (attempt + 1 < STORE_RETRIES) continue;
      await this.patiently('the quarantine', () => this.env.store.put(`${this.task.id}/quarantine`, JSON.stringify({ reason: 'the projection does not fold the events', projection: folded, events: values.length })));
      const here = quarantinedHere.get(this.env) ?? new Set<string>();
      quarantinedHere.set(this.env, here.add(this.task.id));
      await this.putFilesBack();
      throw new Stop('quarantined: the projection does not fold the events');
    }
  }

  /** Appends an event in the next slot, as the lease holder; a slot someone else took stops the worker. */
  protected override async record(record: LogRecord): Promise<void> {
    await this.renew();
    const key = slotKey(this.task.id, this.next);
    // The writer makes an event its own: a slot holding the same record from another worker is not ours.
    const value = JSON.stringify({ ...record, writer: `worker-${this.env.pid}#${this.env.incarnation}` });
    let held: string | undefined;
    try {
      const written = await this.env.store.put(key, value, this.slotCondition());
      if (!written.ok && written.reason === 'lease') return this.lostSlot(record, 'the lease was lost before the event landed (a pause?)');
      if (written.ok) held = value;
      else held = await this.slot(key, true); // taken: by this event (an earlier try that timed out) or another's
    } catch (error) {
      if (!isTimeout(error)) throw error;
      // It may have been applied: the slot says whether it holds this event, another one, or none.
      held = await this.slot(key, false);
      if (held === undefined) return this.record(record);
    }
    if (held !== value) return this.lostSlot(record, `another worker advanced the task (slot ${this.next} is taken)`);
    this.next++;
    this.events.push(value);
    this.remember(record);
    await this.project();
  }

  /**
   * The projection (<task id>/projection): how many events it folds and the digest of them, for a
   * quick resume. Written after its event, by compare-and-set under the lease.
   */
  protected async project(): Promise<void> {
    const value = projectionOf(this.events);
    try {
      const written = await this.env.store.put(`${this.task.id}/projection`, value, {
        ...(this.projectionVersion === undefined ? { ifAbsent: true } : { ifVersion: this.projectionVersion }),
        lease: { name: this.task.id, token: this.token },
      });
      if (written.ok) {
        this.projectionVersion = written.version;
        return;
      }
      if (written.reason === 'lease') throw new Error('the lease was lost before the projection landed; a new incarnation takes the lease again');
    } catch (error) {
      if (!isTimeout(error)) throw error;
    }
    // Timed out or refused: if it holds this projection (applied before the answer was lost), go on;
    // anything else means this worker's view was stale — stop, and read afresh in a new incarnation.
    const held = await this.patiently('a read of the projection', () => this.env.store.get(`${this.task.id}/projection`));
    if (held?.value !== value) throw new Error('the projection moved under this worker; a new incarnation reads it afresh');
    this.projectionVersion = held.version;
  }

  /** How an event takes its slot: only if the slot is empty, and only while this worker's lease holds. */
  protected slotCondition(): { ifAbsent: true; lease?: { name: string; token: number } } {
    return { ifAbsent: true, lease: { name: this.task.id, token: this.token } };
  }

  /**
   * Lost the slot — another worker took it, or the lease was gone when the write landed: stop at
   * once. The incarnation ends with an error; the supervisor restarts it, and the new incarnation
   * takes the lease again and reads the events afresh.
   */
  protected async lostSlot(_record: LogRecord, why: string): Promise<void> {
    throw new Error(`${why}; a new incarnation takes the lease again and reads afresh`);
  }

  /** The headers that fence a POST: the lease's token. */
  protected fencing(): Record<string, string> {
    return { 'x-fencing-token': String(this.token) };
  }

  /**
   * A query carries the token too, so the service hears this holder even when it only asks: a
   * paused former holder that wakes after it and sends is refused (412), not committed.
   */
  protected override queryFencing(): Record<string, string> {
    return this.fencing();
  }

  /** What a slot holds. `taken`: the store said it is, so an empty read is a stale one and is asked again. */
  private async slot(key: string, taken: boolean): Promise<string | undefined> {
    for (let attempt = 0; attempt < STORE_RETRIES; attempt++) {
      const held = (await this.patiently('a read of the slot', () => this.env.store.get(key)))?.value;
      if (held !== undefined || !taken) return held;
    }
    throw new Error('the store keeps answering a taken slot as empty');
  }

  /** A query, as the lease holder: reconciling can outlast a lease that is not kept alive. */
  protected override async query(key: string, digest: string): Promise<QueryAnswer> {
    await this.renew();
    return super.query(key, digest);
  }

  protected override async read(op: LookupOperation): ReturnType<ReferenceRun['read']> {
    await this.renew();
    return super.read(op);
  }

  /** The POST, as the lease holder, with the lease's fencing token; 412 stops the worker. */
  protected override async post(key: string, intent: Intent): Promise<Verdict> {
    await this.renew();
    // A store retry after the gate was looked at (in the dispatched record's renewal, or this one)
    // waited: the cancel and the planned input are looked at again before the request leaves.
    const held = await this.stillOpen(key);
    if (held !== undefined) return held;
    let response: Response;
    try {
      response = await this.env.fetch(`${this.task.service.url}/operations/${encodeURIComponent(key)}`, {
        method: 'POST',
        body: intent.body,
        headers: { 'idempotency-key': key, 'content-type': 'text/plain', ...this.credentials(), ...this.fencing() },
        signal: await this.env.clock.timeout(this.settings.requestTimeoutMs),
      });
    } catch (error) {
      return { state: 'outcome_unknown', reason: `the request failed: ${error instanceof Error ? error.name : String(error)}` };
    }
    // Fenced out: a later lease holder (a worker, or an operator who took the task over) has been
    // heard. Stop at once; a new incarnation waits for the lease and resumes if anything is left.
    if (response.status === 412) throw new Error('fenced out: a later lease holder has been heard; a new incarnation waits for the lease');
    return this.judgeReceipt(response, key, intent.digest);
  }
}

/** The projection of these event values: how many, and their digest (each value followed by a newline). */
export function projectionOf(values: readonly string[]): string {
  return JSON.stringify({ events: values.length, digest: digestOf(values.map((v) => `${v}\n`).join('')) });
}

/** The events of every task in the store, in slot order, in the model's vocabulary. */
export function recordsFromStore(store: StoreView | undefined): JournalRecords {
  const events = (store?.list('') ?? []).filter((e) => /\/events\/\d+$/.test(e.key));
  return recordsFromLines(events.map((e) => JSON.parse(e.value) as LogRecord));
}

export type CoordinatedRunFactory = (env: ConstructorParameters<typeof CoordinatedRun>[0], task: ConstructorParameters<typeof CoordinatedRun>[1]) => CoordinatedRun;

/** Wraps a coordinated run class as a JournalAdapter whose records live in the store (one call of a task at a time in a process). */
export function coordinatedJournalFrom(name: string, makeRun: CoordinatedRunFactory): JournalAdapter {
  return { name, run: oneCallAtATime((env, task) => makeRun(env, task).execute()), inspect: (_disk, store) => recordsFromStore(store) };
}

export const coordinatedJournal: JournalAdapter = coordinatedJournalFrom('coordinated', (env, task) => new CoordinatedRun(env, task));
