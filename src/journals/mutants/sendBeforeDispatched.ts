/**
 * Mutant send-before-dispatched — the request leaves before `dispatched` is durable (the record is
 * written after the call returns). A crash in between leaves a request the journal never knew it
 * sent. Should break: write-ahead.
 */
import type { PublishOperation } from '../../../model/contract/contract.js';
import { journalFrom, ReferenceRun, type Intent, type Verdict } from '../reference.js';

class SendBeforeDispatched extends ReferenceRun {
  protected override async dispatch(op: PublishOperation, intent: Intent): Promise<Verdict> {
    const verdict = await this.post(op.key, intent);
    await this.record({ key: op.key, state: 'dispatched', digest: intent.digest });
    return verdict;
  }
}

export const journal = journalFrom('send-before-dispatched', (env, task) => new SendBeforeDispatched(env, task));
