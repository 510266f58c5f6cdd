/**
 * The task-level rules of seed 002 that every bundled journal keeps, below the reference's
 * operation logic: the access token (sent, never recorded), the cancel (looked at before every
 * send), the failure classes (a 403 pauses the task, a 503's wait is kept where a restart finds
 * it), the retry budget (counted in the durable dispatched records), and the inputs a node was
 * planned from (read again right before every send: a changed one pauses it for replanning).
 */
import type { PublishOperation } from '../../model/contract/contract.js';
import { FileDeliveryRun } from './fileDelivery.js';
import { hasCode, type LogRecord } from './jsonlLog.js';

export interface Intent {
  digest: string;
  body: string;
}

export abstract class TaskGuardsRun extends FileDeliveryRun {
  /** The task's access token, if it carries one, for every request: held in memory, never recorded. */
  protected credentials(): Record<string, string> {
    return this.task.accessToken === undefined ? {} : { authorization: `Bearer ${this.task.accessToken}` };
  }

  // ---- cancellation (seed 002) ----

  protected cancelled = false;

  /** Whether the user cancelled the task: a look at task.cancelFile, when claiming a node and before every send. Once seen, it stays seen. */
  protected async cancelSeen(): Promise<boolean> {
    if (this.cancelled || this.task.cancelFile === undefined) return this.cancelled;
    try {
      await this.env.fs.stat(this.task.cancelFile);
      this.cancelled = true;
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
    }
    return this.cancelled;
  }

  /**
   * Cancelled before this send: an operation never sent is recorded cancelled; one sent before (it
   * may have landed) stays in doubt, for reconciliation — never recorded as if it had not happened.
   */
  protected async stopForCancel(key: string, intent: Intent): Promise<void> {
    if (this.history(key).some((r) => r.state === 'dispatched')) return;
    await this.record({ key, state: 'cancelled', digest: intent.digest, reason: 'the task was cancelled before this operation was sent' });
  }

  // ---- failure classes and the retry budget (seed 002) ----

  /** Paused by a human's decision (403): recorded blocked, and the task sends nothing more, in this incarnation or any later one. */
  protected async pause(key: string, intent: Intent, reason: string): Promise<void> {
    await this.record({ key, state: 'blocked', digest: intent.digest, reason, errorClass: 'permission-revoked', handoff: this.handoff('restore the permission, then resume the task') });
  }

  /** Whether the task is paused: a permission was revoked (recorded, so a restart stays paused). */
  protected paused(): boolean {
    return [...this.records.values()].some((history) => history.some((r) => r.errorClass === 'permission-revoked'));
  }

  /** A 503's wait, recorded so that a restart keeps it: the time asked for plus jitter (up to half of it). */
  protected async nextAttempt(retryAfterMs: number | undefined): Promise<Pick<LogRecord, 'errorClass' | 'nextAttemptAtMs'>> {
    if (retryAfterMs === undefined) return {};
    const jitterMs = Math.floor((await this.env.random()) * (retryAfterMs / 2));
    return { errorClass: 'unavailable', nextAttemptAtMs: (await this.env.clock.now()) + retryAfterMs + jitterMs };
  }

  /** Waits until the operation's recorded next attempt, if one is still ahead. */
  protected async waitAsAsked(key: string): Promise<void> {
    const next = this.history(key).findLast((r) => r.nextAttemptAtMs !== undefined)?.nextAttemptAtMs;
    if (next === undefined) return;
    const now = await this.env.clock.now();
    if (next > now) await this.sleep(next - now);
  }

  /**
   * The retry budget, counted from the durable records (a dispatched record precedes every POST):
   * when this operation's or the task's is spent, the operation ends blocked with a handoff.
   */
  protected async budgetSpent(key: string, intent: Intent): Promise<boolean> {
    const budget = this.task.retryBudget;
    if (!budget) return false;
    const sent = (k: string): number => this.history(k).filter((r) => r.state === 'dispatched').length;
    const mine = sent(key);
    const all = this.task.operations.filter((op) => op.kind === 'publish').reduce((n, op) => n + sent(op.key), 0);
    if (mine < budget.perOperation && all < budget.perTask) return false;
    const reason = `retry budget spent: ${mine} of ${budget.perOperation} sends of this operation, ${all} of ${budget.perTask} for the task`;
    await this.record({ key, state: 'blocked', digest: intent.digest, reason, handoff: this.handoff('ask the service about the operations in doubt before anything is sent again') });
    return true;
  }

  /** What a human needs to take the task over: what is done, what is in doubt, the receipts, what to check. */
  protected handoff(check: string): NonNullable<LogRecord['handoff']> {
    const last = (key: string): LogRecord | undefined => this.history(key).at(-1);
    const ops = this.task.operations.map((op) => op.key);
    return {
      completed: ops.filter((key) => last(key)?.state === 'succeeded'),
      inDoubt: ops.filter((key) => ['dispatched', 'outcome_unknown', 'reconciling'].includes(last(key)?.state ?? '')),
      receipts: Object.fromEntries(ops.flatMap((key) => (last(key)?.receipt ? [[key, last(key)?.receipt as string]] : []))),
      check,
    };
  }

  // ---- inputs (seed 002) ----

  /**
   * Whether the input this node was planned from has changed (or cannot be read back): a read of
   * the resource right before the send, asked again a few times while it gets no answer.
   */
  protected async inputStale(op: PublishOperation): Promise<string | undefined> {
    if (!op.input) return undefined;
    let why = 'no answer';
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) await this.sleep(this.settings.queryBackoffMs * attempt);
      try {
        const response = await this.env.fetch(`${this.task.service.url}/resources/${encodeURIComponent(op.input.resource)}`, { headers: this.credentials(), signal: await this.env.clock.timeout(this.settings.requestTimeoutMs) });
        const body = (response.status === 200 ? await response.json() : null) as { value?: unknown } | null;
        if (typeof body?.value === 'string') return body.value === op.input.version ? undefined : `its input ${op.input.resource} changed from ${JSON.stringify(op.input.version)} to ${JSON.stringify(body.value)}: the plan needs replanning or approval`;
        why = `status ${response.status}`;
      } catch (error) {
        why = error instanceof Error ? error.name : String(error);
      }
    }
    return `its input ${op.input.resource} could not be read back (${why}): it is not sent on an unverified plan`;
  }
}
