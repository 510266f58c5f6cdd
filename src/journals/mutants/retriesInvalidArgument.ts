/**
 * Mutant retries-invalid-argument — every status it does not know is "maybe a glitch": a 400
 * (invalid arguments) is treated as an unknown outcome, reconciled and sent again, as a 5xx would
 * be. A deterministic refusal is retried until the send cap, wasting the budget and never telling
 * anyone the plan needs fixing. Should break: failure-class-respected.
 */
import { journalFrom, ReferenceRun, type Verdict } from '../reference.js';

class RetriesInvalidArgument extends ReferenceRun {
  protected override async judgeReceipt(response: Response, key: string, digest: string): Promise<Verdict> {
    if (response.status === 400) return { state: 'outcome_unknown', reason: 'status 400' };
    return super.judgeReceipt(response, key, digest);
  }
}

export const journal = journalFrom('retries-invalid-argument', (env, task) => new RetriesInvalidArgument(env, task));
