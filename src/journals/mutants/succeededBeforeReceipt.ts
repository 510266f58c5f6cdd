/**
 * Mutant succeeded-before-receipt — on a 200/201 it records succeeded with whatever receipt the
 * body names, and only then checks key, digest, state and receipt, appending outcome_unknown when
 * the check fails. A crash in between leaves a false success. Should break: no-state-skip and
 * truthful-outcome.
 */
import type { PublishOperation } from '../../../model/contract/contract.js';
import { journalFrom, ReferenceRun, isValidReceipt, type FinalVerdict, type Intent, type Verdict } from '../reference.js';

class SucceededBeforeReceipt extends ReferenceRun {
  protected override async dispatch(op: PublishOperation, intent: Intent): Promise<Verdict> {
    await this.record({ key: op.key, state: 'dispatched', digest: intent.digest });
    let response: Response;
    try {
      response = await this.env.fetch(`${this.task.service.url}/operations/${encodeURIComponent(op.key)}`, {
        method: 'POST',
        body: intent.body,
        signal: await this.env.clock.timeout(this.settings.requestTimeoutMs),
      });
    } catch (error) {
      return { state: 'outcome_unknown', reason: `the request failed: ${error instanceof Error ? error.name : String(error)}` };
    }
    if (response.status !== 200 && response.status !== 201) return this.judgeReceipt(response, op.key, intent.digest);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return { state: 'outcome_unknown', reason: 'the receipt could not be read' };
    }
    const receipt = String((body as { receipt?: unknown } | null)?.receipt ?? '');
    await this.record({ key: op.key, state: 'succeeded', digest: intent.digest, receipt });
    if (isValidReceipt(body, op.key, intent.digest)) return { state: 'succeeded', receipt };
    return { state: 'outcome_unknown', reason: 'the receipt does not prove this intent committed' };
  }

  protected override async conclude(key: string, intent: Intent, verdict: FinalVerdict): Promise<void> {
    if (verdict.state === 'succeeded' && this.last(key)?.state === 'succeeded') return;
    await super.conclude(key, intent, verdict);
  }
}

export const journal = journalFrom('succeeded-before-receipt', (env, task) => new SucceededBeforeReceipt(env, task));
