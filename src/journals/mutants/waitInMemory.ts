/**
 * Mutant wait-in-memory — a 503's wait is kept in a variable of the running process: the same
 * incarnation waits as long as it was asked, but the wait is never recorded, so the incarnation
 * after a restart sends again at once. The service protocol asks for the wait to be kept where a
 * restart finds it. Should break: failure-class-respected.
 */
import type { LogRecord } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class WaitInMemory extends ReferenceRun {
  private readonly nextAttemptAtMs = new Map<string, number>();
  private asked: number | undefined;

  protected override async nextAttempt(retryAfterMs: number | undefined): Promise<Pick<LogRecord, 'errorClass' | 'nextAttemptAtMs'>> {
    this.asked = retryAfterMs === undefined ? undefined : (await this.env.clock.now()) + retryAfterMs;
    return {};
  }

  protected override async record(record: LogRecord): Promise<void> {
    if (this.asked !== undefined) this.nextAttemptAtMs.set(record.key, this.asked);
    this.asked = undefined;
    return super.record(record);
  }

  protected override async waitAsAsked(key: string): Promise<void> {
    const next = this.nextAttemptAtMs.get(key);
    if (next === undefined) return;
    const now = await this.env.clock.now();
    if (next > now) await this.sleep(next - now);
  }
}

export const journal = journalFrom('wait-in-memory', (env, task) => new WaitInMemory(env, task));
