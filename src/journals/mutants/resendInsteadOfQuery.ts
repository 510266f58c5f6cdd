/**
 * Mutant resend-instead-of-query — on restart it re-POSTs under the same key instead of asking
 * the service, trusting idempotency it was never promised. Unsafe when the service's idempotency
 * memory is volatile across a restart. Should break: no-blind-retry, retry-safe-only and, across
 * a volatile restart, one-effect-per-key.
 */
import type { PublishOperation } from '../../../model/contract/contract.js';
import { journalFrom, ReferenceRun, type Intent } from '../reference.js';

class ResendInsteadOfQuery extends ReferenceRun {
  protected override async recover(op: PublishOperation, intent: Intent, sends: number): Promise<'send' | 'done'> {
    if (sends >= this.settings.maxSends) return super.recover(op, intent, sends);
    await this.record({ key: op.key, state: 'reconciling', digest: intent.digest });
    return 'send';
  }
}

export const journal = journalFrom('resend-instead-of-query', (env, task) => new ResendInsteadOfQuery(env, task));
