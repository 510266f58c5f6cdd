/**
 * Mutant ignores-retry-after — a 503 is an unknown outcome like any other: reconciled, then sent
 * again as soon as the queries are done, whatever wait the service asked for. Under a long outage
 * it hammers the dependency (and every task recovering at once does the same). Should break:
 * failure-class-respected.
 */
import type { LogRecord } from '../jsonlLog.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class IgnoresRetryAfter extends ReferenceRun {
  protected override async nextAttempt(): Promise<Pick<LogRecord, 'errorClass' | 'nextAttemptAtMs'>> {
    return {};
  }
}

export const journal = journalFrom('ignores-retry-after', (env, task) => new IgnoresRetryAfter(env, task));
