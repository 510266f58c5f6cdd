/**
 * Mutant cancel-rolls-back — a cancelled task is made to look as if it never ran: the moment the
 * cancel is seen, every operation not yet finished is recorded cancelled, including one whose
 * request already left and may have landed. The records then deny an effect the service holds.
 * Should break: cancel-truth.
 */
import { journalFrom, ReferenceRun, type Intent } from '../reference.js';

const FINAL = new Set(['succeeded', 'conflict', 'failed', 'blocked', 'cancelled']);

class CancelRollsBack extends ReferenceRun {
  private rolledBack = false;

  protected override async cancelSeen(): Promise<boolean> {
    const seen = await super.cancelSeen();
    if (seen && !this.rolledBack) {
      this.rolledBack = true;
      for (const op of this.task.operations) {
        const last = this.last(op.key);
        if (op.kind !== 'publish' || last === undefined || FINAL.has(last.state)) continue;
        await this.record({ key: op.key, state: 'cancelled', digest: this.intent(op).digest, reason: 'the task was cancelled' });
      }
    }
    return seen;
  }

  protected override async stopForCancel(key: string, intent: Intent): Promise<void> {
    if (!FINAL.has(this.last(key)?.state ?? '')) await this.record({ key, state: 'cancelled', digest: intent.digest, reason: 'the task was cancelled' });
  }
}

export const journal = journalFrom('cancel-rolls-back', (env, task) => new CancelRollsBack(env, task));
