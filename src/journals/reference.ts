/**
 * The reference journal: the correct operation journal the design notes describe.
 *
 * - One append-only JSONL log, every record fsynced; the log's directory fsynced after creating it.
 * - A task lease (an exclusively created lock file) makes one worker the writer; a duplicate
 *   delivery waits for it and finds the saved results.
 * - publish: authorized (with digest and body), then dispatched, both durable *before* the request
 *   leaves. succeeded only for a 200/201 receipt whose key, digest (the recorded intent's, never
 *   this incarnation's arguments), committed state and non-empty receipt all match; 409 →
 *   conflict; timeout, 500, 202, malformed or cut body → outcome_unknown, then reconciling by
 *   GET with the same key, within a bound. A receipt for another digest proves nothing (it stays
 *   unknown). When the queries give no verdict, a re-send under the same key happens only when
 *   the service promises idempotent replay (or the write is retry-safe); otherwise the operation
 *   ends blocked. Never a new key.
 * - Failure classes: 400 → failed (the plan needs fixing; never retried); 403 → blocked, and the
 *   task pauses (nothing more is sent, by this incarnation or a later one); 503 → unknown, with the
 *   wait it asked for plus jitter recorded (nextAttemptAtMs) and kept before the next send, even
 *   after a restart. A retry budget (task.retryBudget) is counted in the durable dispatched
 *   records; spent → blocked, with a handoff (done, in doubt, receipts, what to check).
 * - The task's access token goes out as every request's credential and is never recorded.
 * - Inputs: a publish planned from a version of a source (op.input) reads it back right before
 *   every send; changed (or unreadable) → blocked, for replanning or approval, with a handoff.
 * - Cancellation: task.cancelFile is looked at when claiming each operation and before every send
 *   and retry. Once it is there nothing new starts: an operation never sent is recorded cancelled,
 *   one that may have left stays in doubt for reconciliation (never recorded as not happened).
 * - The gate rule: what gates a send (the cancel file, the planned input) is looked at after every
 *   wait on the way to it — a 503's wait comes first, and a wait among the looks makes them again —
 *   so no sleep lies between the last look and the request.
 * - lookup: a retry-safe read; retried within a bound, recovery passes through reconciling.
 * - edit: read and digest; the current file is moved aside (rename) and re-checked against the
 *   digest; the candidate is written and fsynced under a temporary name and hard-linked into
 *   place (a link never replaces a file, so a user's save made meanwhile is never clobbered),
 *   the directory fsynced, then applied is recorded. A changed file → conflict with the user's
 *   text preserved in the log, the user's version linked back, and the candidate rebuilt on the
 *   new base.
 * - Temp files (task.temp): each publish's body is staged in the shared temp folder, registered
 *   before it is created; once the task is finished or cancelled, a cleanup deletes what this task
 *   registered (tempFiles.ts), never the journal's records.
 * - A torn last line of the log is skipped, not fatal.
 */
import type { Env, JournalAdapter, LookupOperation, Operation, PublishOperation, Task } from '../../model/contract/contract.js';
import { digestOf } from '../../model/contract/digest.js';
import type { Intent } from './taskGuards.js';
import { TempFilesRun } from './tempFiles.js';
import { acquireLease, recordsFromLog, releaseLease } from './jsonlLog.js';
import { oneCallAtATime } from './oneCallAtATime.js';

export { REFERENCE_SETTINGS, type ReferenceSettings } from './journalRun.js';

export type Verdict =
  | { state: 'succeeded'; receipt: string }
  | { state: 'conflict'; reason: string }
  | { state: 'failed'; reason: string; errorClass?: 'invalid-argument' }
  /** 403: only a human can lift it; the task pauses. */
  | { state: 'paused'; reason: string }
  /** retryAfterMs: a 503, which asked for that wait before the next try. */
  | { state: 'outcome_unknown'; reason: string; retryAfterMs?: number }
  /** Not sent: the gate, looked at again after a wait on the way to the request, was closed (the cancel, a changed input). */
  | { state: 'held'; gate: 'cancel' | 'input'; reason: string };

/** What a query says about a key: our intent committed, nothing (404), or nothing provable. */
export type QueryAnswer = { state: 'succeeded'; receipt: string } | { state: 'absent' } | { state: 'unknown'; reason: string };

/** A verdict the operation ends on. */
export type FinalVerdict = Exclude<Verdict, { state: 'outcome_unknown' | 'paused' | 'held' }>;

export type { Intent } from './taskGuards.js';

const FINAL_OPERATION_STATES = new Set(['succeeded', 'conflict', 'failed', 'blocked', 'cancelled']);

/** The wait a 503 asks for (its body's retryAfterMs), or 1 s when it names none. */
async function retryAfterOf(response: Response): Promise<number> {
  try {
    const body = (await response.json()) as { retryAfterMs?: unknown } | null;
    return typeof body?.retryAfterMs === 'number' && body.retryAfterMs >= 0 ? body.retryAfterMs : 1000;
  } catch {
    return 1000;
  }
}

export function isValidReceipt(value: unknown, key: string, digest: string): value is { receipt: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const receipt = value as Record<string, unknown>;
  return receipt.key === key && receipt.digest === digest && receipt.state === 'committed' && typeof receipt.receipt === 'string' && receipt.receipt.trim().length > 0;
}

/** One incarnation of the reference journal. Mutants subclass it and override one method. */
export class ReferenceRun extends TempFilesRun {
  async execute(): Promise<void> {
    if (!(await this.acquireLease())) return;
    for (const record of await this.loadRecords()) this.remember(record);
    for (const op of this.task.operations) if (!this.paused() && !(await this.cancelSeen())) await this.operation(op);
    if (this.cancelled) await this.settleAfterCancel();
    await this.cleanupTemps();
    await this.tempLog.close();
    await this.log.close();
    await releaseLease(this.env);
  }

  /** The task lease: one writer per task, a duplicate delivery waits (jsonlLog.acquireLease: a lock file hard-linked into place). */
  protected acquireLease(): Promise<boolean> {
    return acquireLease(this.env, { pollMs: this.settings.leasePollMs, attempts: this.settings.leaseAttempts });
  }

  protected async operation(op: Operation): Promise<void> {
    if (op.kind === 'publish') await this.publish(op);
    else if (op.kind === 'lookup') await this.lookup(op);
    else await this.edit(op);
  }

  // ---- the log ----



  /** The intent under this key: the recorded one if any (it wins), else this incarnation's arguments. */
  protected intent(op: PublishOperation): Intent {
    const authorized = this.history(op.key).filter((r) => r.state === 'authorized').at(-1);
    if (authorized?.digest !== undefined && authorized.body !== undefined) return { digest: authorized.digest, body: authorized.body };
    return { digest: digestOf(op.body), body: op.body };
  }

  /** The operation as its recorded intent was planned: the input recorded with it, if any, else the one this incarnation was given. */
  protected plannedFrom(op: PublishOperation): PublishOperation {
    const recorded = this.history(op.key).filter((r) => r.state === 'authorized').at(-1)?.input;
    return recorded === undefined ? op : { ...op, input: recorded };
  }

  protected async publish(op: PublishOperation): Promise<void> {
    const last = this.last(op.key);
    if (last && FINAL_OPERATION_STATES.has(last.state)) return; // a saved result is reused, never redone
    const intent = this.intent(op);
    if (last === undefined) {
      await this.stageTemp(op, intent.body);
      await this.record({ key: op.key, state: 'authorized', digest: intent.digest, body: intent.body, ...(op.input ? { input: op.input } : {}) });
      return this.deliver(op, intent, 'send');
    }
    if (last.state === 'authorized') {
      if (digestOf(op.body) !== intent.digest) {
        await this.record({ key: op.key, state: 'blocked', digest: intent.digest, reason: 'the arguments changed since the intent was authorized' });
        return;
      }
      return this.deliver(op, intent, 'send'); // never sent: dispatched was not durable
    }
    return this.deliver(op, intent, 'reconcile'); // dispatched, outcome_unknown or reconciling: it may have left
  }

  protected async deliver(op: PublishOperation, intent: Intent, start: 'send' | 'reconcile'): Promise<void> {
    let phase = start;
    let sends = 0;
    for (;;) {
      if (phase === 'send') {
        if (!(await this.gateOpen(op, intent))) return;
        sends++;
        const verdict = await this.dispatch(op, intent);
        if (verdict.state === 'held') return this.held(op, intent, verdict);
        if (verdict.state === 'paused') return this.pause(op.key, intent, verdict.reason);
        if (verdict.state !== 'outcome_unknown') return this.conclude(op.key, intent, verdict);
        await this.record({ key: op.key, state: 'outcome_unknown', digest: intent.digest, reason: verdict.reason, ...(await this.nextAttempt(verdict.retryAfterMs)) });
      }
      if ((await this.recover(op, intent, sends)) === 'done') return;
      phase = 'send';
    }
  }

  /**
   * The gate of a send, looked at after every wait on the way to it (the gate rule): a 503's
   * recorded wait first, then the cancel, the retry budget and the planned input — looked at again
   * when a wait came among them (a re-read of an unanswered input backs off), so the last looks
   * follow the last wait. false: closed, and recorded why.
   */
  protected async gateOpen(op: PublishOperation, intent: Intent): Promise<boolean> {
    await this.waitAsAsked(op.key);
    for (;;) {
      const waits = this.waits;
      if (await this.cancelSeen()) {
        await this.stopForCancel(op.key, intent);
        return false;
      }
      if (await this.budgetSpent(op.key, intent)) return false;
      const stale = await this.inputStale(this.plannedFrom(op));
      if (stale !== undefined) {
        await this.record({ key: op.key, state: 'blocked', digest: intent.digest, reason: stale, handoff: this.handoff('replan from the new input, or approve the old plan') });
        return false;
      }
      if (this.waits === waits) {
        this.gatedAt = waits;
        return true;
      }
    }
  }

  /** The waits count when the gate of the coming send was last looked at: a send leaves only if no wait came since. */
  protected gatedAt = -1;

  /**
   * Looked at again right before the request leaves, when a wait came after the gate was looked at
   * (the coordinated journal's store retries between its dispatched record and its POST): the
   * cancel and the planned input. A closed gate: the request does not leave.
   */
  protected async stillOpen(key: string): Promise<Extract<Verdict, { state: 'held' }> | undefined> {
    const op = this.task.operations.find((o): o is PublishOperation => o.kind === 'publish' && o.key === key);
    while (op !== undefined && this.waits !== this.gatedAt) {
      const waits = this.waits;
      if (await this.cancelSeen()) return { state: 'held', gate: 'cancel', reason: 'the task was cancelled before this request left' };
      const stale = await this.inputStale(this.plannedFrom(op));
      if (stale !== undefined) return { state: 'held', gate: 'input', reason: stale };
      if (this.waits === waits) this.gatedAt = waits;
    }
    return undefined;
  }

  /**
   * A dispatched request the gate held back (it never left): cancelled, when it is the key's only
   * dispatched record (nothing of it can have landed); blocked for replanning on a changed input;
   * otherwise in doubt, for reconciliation, as a cancel finds any operation that may have left.
   */
  protected async held(op: PublishOperation, intent: Intent, verdict: Extract<Verdict, { state: 'held' }>): Promise<void> {
    if (verdict.gate === 'input') return this.record({ key: op.key, state: 'blocked', digest: intent.digest, reason: verdict.reason, handoff: this.handoff('replan from the new input, or approve the old plan') });
    if (this.history(op.key).filter((r) => r.state === 'dispatched').length === 1) await this.record({ key: op.key, state: 'cancelled', digest: intent.digest, reason: verdict.reason });
  }

  /** dispatched is durable, then the request leaves. */
  protected async dispatch(op: PublishOperation, intent: Intent): Promise<Verdict> {
    await this.record({ key: op.key, state: 'dispatched', digest: intent.digest });
    return this.post(op.key, intent);
  }

  /** Reconciles a write that may have left: asks the service, and says whether to send (again). */
  protected async recover(op: PublishOperation, intent: Intent, sends: number): Promise<'send' | 'done'> {
    await this.record({ key: op.key, state: 'reconciling', digest: intent.digest });
    const answer = await this.findOutcome(op.key, this.verificationIntent(op, intent));
    if (answer.state === 'succeeded') {
      await this.conclude(op.key, intent, answer);
      return 'done';
    }
    // With replay promised, a re-send under the same key is itself the safest question: it
    // replays our receipt, answers 409 for another intent, or commits what never landed.
    const mayResend = op.retrySafe === true || this.task.service.idempotentReplay;
    if (mayResend && sends < this.settings.maxSends) return 'send';
    const why = answer.state === 'absent' ? 'the service does not know the key' : answer.reason;
    const reason = mayResend ? `${why} after ${sends} sends` : `${why}, and it promises no idempotent replay, so a re-send could commit twice`;
    await this.record({ key: op.key, state: 'blocked', digest: intent.digest, reason });
    return 'done';
  }

  /** The intent receipts are judged against: the recorded one. */
  protected verificationIntent(_op: PublishOperation, recorded: Intent): Intent {
    return recorded;
  }

  protected async conclude(key: string, intent: Intent, verdict: FinalVerdict): Promise<void> {
    if (verdict.state === 'succeeded') await this.record({ key, state: 'succeeded', digest: intent.digest, receipt: verdict.receipt });
    else await this.record({ key, state: verdict.state, digest: intent.digest, reason: verdict.reason, ...(verdict.state === 'failed' && verdict.errorClass ? { errorClass: verdict.errorClass } : {}) });
  }

  /**
   * After a cancel nothing new starts, but what may already have happened is found out: each
   * operation in doubt is asked about (queries only, never a send) and recorded succeeded when the
   * service holds it; the rest stay in doubt, for a human. A user's file moved aside goes back.
   */
  protected async settleAfterCancel(): Promise<void> {
    for (const op of this.task.operations) {
      const last = this.last(op.key);
      if (op.kind !== 'publish' || last === undefined || !['dispatched', 'outcome_unknown', 'reconciling'].includes(last.state)) continue;
      const intent = this.intent(op);
      if (last.state !== 'reconciling') await this.record({ key: op.key, state: 'reconciling', digest: intent.digest });
      const answer = await this.findOutcome(op.key, this.verificationIntent(op, intent));
      if (answer.state === 'succeeded') await this.conclude(op.key, intent, answer);
    }
    await this.putFilesBack();
  }



  protected async post(key: string, intent: Intent): Promise<Verdict> {
    try {
      const response = await this.env.fetch(`${this.task.service.url}/operations/${encodeURIComponent(key)}`, {
        method: 'POST',
        body: intent.body,
        headers: { 'idempotency-key': key, 'content-type': 'text/plain', ...this.credentials() },
        signal: await this.env.clock.timeout(this.settings.requestTimeoutMs),
      });
      return await this.judgeReceipt(response, key, intent.digest);
    } catch (error) {
      return { state: 'outcome_unknown', reason: `the request failed: ${error instanceof Error ? error.name : String(error)}` };
    }
  }

  /**
   * 409 → conflict; 400 → failed (the arguments are invalid: the plan needs fixing, never a retry);
   * 403 → paused (a permission was revoked); 503 → unknown, with the wait it asks for; only a full,
   * matching, committed receipt → succeeded; anything else → unknown.
   */
  protected async judgeReceipt(response: Response, key: string, digest: string): Promise<Verdict> {
    if (response.status === 409) return { state: 'conflict', reason: 'the service holds another intent under this key (409)' };
    if (response.status === 400) return { state: 'failed', reason: 'the service finds the arguments invalid (400): the plan needs fixing', errorClass: 'invalid-argument' };
    if (response.status === 403) return { state: 'paused', reason: 'the permission was revoked (403): the task pauses for a human' };
    if (response.status === 503) return { state: 'outcome_unknown', reason: 'the service is unavailable (503)', retryAfterMs: await retryAfterOf(response) };
    if (response.status !== 200 && response.status !== 201) return { state: 'outcome_unknown', reason: `status ${response.status}` };
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return { state: 'outcome_unknown', reason: 'the receipt could not be read' };
    }
    if (isValidReceipt(body, key, digest)) return { state: 'succeeded', receipt: body.receipt };
    return { state: 'outcome_unknown', reason: 'the receipt does not prove this intent committed' };
  }

  /** Asks the service about the key until it gives a verdict or a stable 404, within a bound. */
  protected async findOutcome(key: string, intent: Intent): Promise<QueryAnswer> {
    if (!this.task.service.query) return { state: 'unknown', reason: 'the service offers no query, so the outcome cannot be learned' };
    let last: QueryAnswer = { state: 'unknown', reason: 'no answer' };
    for (let attempt = 0; attempt < this.settings.queryAttempts; attempt++) {
      if (attempt > 0) await this.sleep(this.settings.queryBackoffMs * attempt);
      last = await this.query(key, intent.digest);
      if (last.state === 'succeeded') return last;
    }
    return last.state === 'absent' ? last : { state: 'unknown', reason: `no verdict after ${this.settings.queryAttempts} queries (${last.reason})` };
  }

  /** Headers that let the service hear a query's sender as the lease holder (none: this journal takes no store lease). */
  protected queryFencing(): Record<string, string> {
    return {};
  }

  protected async query(key: string, digest: string): Promise<QueryAnswer> {
    try {
      const response = await this.env.fetch(`${this.task.service.url}/operations/${encodeURIComponent(key)}`, {
        headers: { ...this.credentials(), ...this.queryFencing() },
        signal: await this.env.clock.timeout(this.settings.requestTimeoutMs),
      });
      if (response.status === 404) return { state: 'absent' };
      if (response.status !== 200) return { state: 'unknown', reason: `query status ${response.status}` };
      const body: unknown = await response.json();
      if (isValidReceipt(body, key, digest)) return { state: 'succeeded', receipt: body.receipt };
      // A receipt for another digest proves nothing about ours (it may be another intent, or a
      // mangled answer): the outcome stays unknown, as the design notes insist.
      return { state: 'unknown', reason: 'the query answer does not prove this intent' };
    } catch (error) {
      return { state: 'unknown', reason: `the query failed: ${error instanceof Error ? error.name : String(error)}` };
    }
  }

  // ---- lookup ----

  protected async lookup(op: LookupOperation): Promise<void> {
    const last = this.last(op.key);
    if (last && FINAL_OPERATION_STATES.has(last.state)) return;
    const digest = digestOf(op.resource);
    if (last === undefined) await this.record({ key: op.key, state: 'authorized', digest });
    else if (last.state !== 'authorized') await this.record({ key: op.key, state: 'reconciling', digest });
    for (let attempt = 0; attempt < this.settings.lookupAttempts; attempt++) {
      if (attempt > 0) await this.sleep(this.settings.queryBackoffMs * attempt);
      await this.record({ key: op.key, state: 'dispatched', digest });
      const verdict = await this.read(op);
      if (verdict.state !== 'outcome_unknown') {
        await this.record({ key: op.key, digest, ...verdict });
        return;
      }
      await this.record({ key: op.key, state: 'outcome_unknown', digest, reason: verdict.reason });
      await this.record({ key: op.key, state: 'reconciling', digest });
    }
    await this.record({ key: op.key, state: 'failed', digest, reason: `no answer after ${this.settings.lookupAttempts} attempts` });
  }

  protected async read(op: LookupOperation): Promise<{ state: 'succeeded'; receipt: string } | { state: 'failed' | 'outcome_unknown'; reason: string }> {
    try {
      const response = await this.env.fetch(`${this.task.service.url}/resources/${encodeURIComponent(op.resource)}`, {
        headers: this.credentials(),
        signal: await this.env.clock.timeout(this.settings.requestTimeoutMs),
      });
      if (response.status === 404) return { state: 'failed', reason: 'no such resource' };
      if (response.status !== 200) return { state: 'outcome_unknown', reason: `status ${response.status}` };
      const body = (await response.json()) as Record<string, unknown> | null;
      if (body && body.resource === op.resource && typeof body.value === 'string') return { state: 'succeeded', receipt: body.value };
      return { state: 'outcome_unknown', reason: 'the answer is not about this resource' };
    } catch (error) {
      return { state: 'outcome_unknown', reason: `the read failed: ${error instanceof Error ? error.name : String(error)}` };
    }
  }

  // ---- edit ----
}


export type RunFactory = (env: Env, task: Task) => ReferenceRun;

/** Wraps a run class as a JournalAdapter (one call of a task at a time in a process); the bundled journals share `inspect`. */
export function journalFrom(name: string, makeRun: RunFactory): JournalAdapter {
  return {
    name,
    run: oneCallAtATime((env, task) => makeRun(env, task).execute()),
    inspect: (disk) => recordsFromLog(disk),
  };
}

export const referenceJournal: JournalAdapter = journalFrom('reference', (env, task) => new ReferenceRun(env, task));
