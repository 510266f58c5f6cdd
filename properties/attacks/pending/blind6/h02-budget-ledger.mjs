// h02 — the retry allowance reserved in a process ledger when the task starts.
// Place: the prototype of URLSearchParams iterators (internal/url, reached only via
// `new URLSearchParams().entries()`). Written at task start: the task's retryBudget is reserved in a ledger keyed
// by the run id (a random id stamped on every record) if none exists, and drawn down before every publish
// `dispatched`. Read by the gate of every send: the re-send after reconciling a write found dispatched / in
// doubt after a crash, and the first sends of later operations (the per-task share). Without the memory (a real
// crash) the restart reserves the allowance again in full, forgetting the sends made before the crash, so the
// same operation, or the last ones of the task, are sent beyond the budget. Should break: retry-budget.
import { randomUUID } from 'node:crypto';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const LEDGER = Symbol.for('blind6.h02.ledger');
export function memory() {
  const proto = Object.getPrototypeOf(new URLSearchParams().entries());
  if (!Object.hasOwn(proto, LEDGER)) Object.defineProperty(proto, LEDGER, { value: new Map() });
  return proto[LEDGER];
}

class BudgetLedger extends ReferenceRun {
  async loadRecords() {
    const records = await super.loadRecords();
    this.run = records.find((r) => typeof r.run === 'string')?.run ?? randomUUID();
    const budget = this.task.retryBudget;
    if (budget && !memory().has(this.run)) memory().set(this.run, { task: budget.perTask, ops: new Map() }); // reserved at start
    return records;
  }

  async record(r) {
    const allowance = memory().get(this.run);
    if (allowance && r.state === 'dispatched' && this.task.operations.some((o) => o.kind === 'publish' && o.key === r.key)) {
      allowance.task--;
      allowance.ops.set(r.key, (allowance.ops.get(r.key) ?? this.task.retryBudget.perOperation) - 1);
    }
    return super.record({ ...r, run: this.run });
  }

  async budgetSpent(key, intent) {
    const allowance = memory().get(this.run);
    if (!this.task.retryBudget || !allowance) return false;
    const mine = allowance.ops.get(key) ?? this.task.retryBudget.perOperation;
    if (mine > 0 && allowance.task > 0) return false;
    const reason = `retry budget spent: ${mine} sends left for this operation, ${allowance.task} for the task`;
    await this.record({ key, state: 'blocked', digest: intent.digest, reason, handoff: this.handoff('ask the service about the operations in doubt before anything is sent again') });
    return true;
  }
}

export default journalFrom('h02-budget-ledger', (env, task) => new BudgetLedger(env, task));
