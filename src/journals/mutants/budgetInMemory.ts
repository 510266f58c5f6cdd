/**
 * Mutant budget-in-memory — the retry budget is counted in a variable of the running process, so
 * every restart starts it at zero: a task that crashes between tries sends far more than its
 * budget allows. Should break: retry-budget.
 */
import type { Intent } from '../reference.js';
import { journalFrom, ReferenceRun } from '../reference.js';

class BudgetInMemory extends ReferenceRun {
  private readonly sent = new Map<string, number>();

  protected override async budgetSpent(key: string, intent: Intent): Promise<boolean> {
    const budget = this.task.retryBudget;
    if (!budget) return false;
    const mine = this.sent.get(key) ?? 0;
    const all = [...this.sent.values()].reduce((n, v) => n + v, 0);
    if (mine >= budget.perOperation || all >= budget.perTask) {
      await this.record({ key, state: 'blocked', digest: intent.digest, reason: 'retry budget spent (this process)' });
      return true;
    }
    this.sent.set(key, mine + 1);
    return false;
  }
}

export const journal = journalFrom('budget-in-memory', (env, task) => new BudgetInMemory(env, task));
