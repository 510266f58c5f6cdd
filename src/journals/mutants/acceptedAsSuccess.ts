/**
 * Mutant accepted-as-success — a 202 (accepted, not yet committed) is recorded as succeeded.
 * Should break: truthful-outcome.
 */
import { journalFrom, ReferenceRun, type Verdict } from '../reference.js';

class AcceptedAsSuccess extends ReferenceRun {
  protected override async judgeReceipt(response: Response, key: string, digest: string): Promise<Verdict> {
    if (response.status === 202) return { state: 'succeeded', receipt: `accepted-${key}` };
    return super.judgeReceipt(response, key, digest);
  }
}

export const journal = journalFrom('accepted-as-success', (env, task) => new AcceptedAsSuccess(env, task));
