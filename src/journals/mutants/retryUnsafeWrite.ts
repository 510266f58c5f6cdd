/**
 * Mutant retry-unsafe-write — on restart, a write left dispatched (retrySafe: false) is simply run
 * again, as if it had never started. Should break: retry-safe-only and no-state-skip.
 */
import type { PublishOperation } from '../../../model/contract/contract.js';
import { journalFrom, ReferenceRun } from '../reference.js';

const IN_DOUBT = new Set(['dispatched', 'outcome_unknown', 'reconciling']);

class RetryUnsafeWrite extends ReferenceRun {
  protected override async publish(op: PublishOperation): Promise<void> {
    const last = this.last(op.key);
    if (last && IN_DOUBT.has(last.state)) return this.deliver(op, this.intent(op), 'send');
    return super.publish(op);
  }
}

export const journal = journalFrom('retry-unsafe-write', (env, task) => new RetryUnsafeWrite(env, task));
