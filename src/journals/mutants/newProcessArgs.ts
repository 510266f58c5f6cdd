/**
 * Mutant new-process-args — recovery judges the service's receipts against this incarnation's
 * arguments instead of the digest recorded with the intent. Should break: recorded-intent-wins
 * (and truthful-outcome).
 */
import type { PublishOperation } from '../../../model/contract/contract.js';
import { digestOf } from '../../../model/contract/digest.js';
import { journalFrom, ReferenceRun, type Intent } from '../reference.js';

class NewProcessArgs extends ReferenceRun {
  protected override verificationIntent(op: PublishOperation): Intent {
    return { digest: digestOf(op.body), body: op.body };
  }
}

export const journal = journalFrom('new-process-args', (env, task) => new NewProcessArgs(env, task));
