/**
 * Mutant timeout-means-failed — a client timeout is recorded as failed (truthful-outcome, where the
 * request committed), and the next incarnation,
 * finding a failed publish, sends it again under a fresh key. Should break: no-blind-retry (and
 * one effect per intent: the first request may well have committed).
 */
import type { PublishOperation } from '../../../model/contract/contract.js';
import { journalFrom, ReferenceRun, type Intent, type Verdict } from '../reference.js';

class TimeoutMeansFailed extends ReferenceRun {
  protected override async dispatch(op: PublishOperation, intent: Intent): Promise<Verdict> {
    const verdict = await super.dispatch(op, intent);
    if (verdict.state === 'outcome_unknown' && verdict.reason.includes('TimeoutError')) return { state: 'failed', reason: 'timed out' };
    return verdict;
  }

  protected override async publish(op: PublishOperation): Promise<void> {
    if (this.last(op.key)?.state !== 'failed') return super.publish(op);
    const retry: PublishOperation = { ...op, key: `${op.key}-retry-${this.env.incarnation}` };
    if (this.last(retry.key) === undefined) await super.publish(retry);
  }
}

export const journal = journalFrom('timeout-means-failed', (env, task) => new TimeoutMeansFailed(env, task));
