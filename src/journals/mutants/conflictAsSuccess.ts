/**
 * Mutant conflict-as-success — a 409 (the key holds another intent) is recorded as succeeded.
 * Should break: truthful-outcome.
 */
import { journalFrom, ReferenceRun, type Verdict } from '../reference.js';

class ConflictAsSuccess extends ReferenceRun {
  protected override async judgeReceipt(response: Response, key: string, digest: string): Promise<Verdict> {
    if (response.status === 409) return { state: 'succeeded', receipt: `409-${key}` };
    return super.judgeReceipt(response, key, digest);
  }
}

export const journal = journalFrom('conflict-as-success', (env, task) => new ConflictAsSuccess(env, task));
