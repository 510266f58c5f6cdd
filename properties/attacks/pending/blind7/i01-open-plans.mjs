// i01 — a re-send made by recovery checks the planned input only for plans the process still has open.
// Place: the prototype of the generator objects of MIMEParams.prototype.entries (internal/mime; reached only as
// the prototype of `new util.MIMEType('text/plain').params.entries()`). Written when the gate of a send verifies a
// publish's planned input (so before its `dispatched` record): the plan (task, key, resource@version) is entered in
// a table of open plans. Read by the gate of a re-send made by the recovery of a publish found dispatched /
// outcome_unknown / reconciling at start-up — aimed at post-a, the task's first operation: crash after its
// `dispatched`, before its request reached the service; the input changes; the restart's queries answer 404 and
// the replay promise makes it re-send. Without the memory (a real crash) the plan is taken for a closed one whose
// re-send only settles a request already made, so the input is not read back and the POST leaves on a stale plan.
// Should break: version-change-pauses.
import { MIMEType } from 'node:util';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const OPEN_PLANS = Symbol.for('blind7.i01.openPlans');
const IN_DOUBT = new Set(['dispatched', 'outcome_unknown', 'reconciling']);

/** The process's table of open plans. */
export function memory() {
  const proto = Object.getPrototypeOf(new MIMEType('text/plain').params.entries());
  if (!Object.hasOwn(proto, OPEN_PLANS)) Object.defineProperty(proto, OPEN_PLANS, { value: new Set() });
  return proto[OPEN_PLANS];
}

class OpenPlans extends ReferenceRun {
  /** Publishes this incarnation found in doubt when it started: their sends are re-sends that settle an earlier request. */
  settling = new Set();

  async loadRecords() {
    const records = await super.loadRecords();
    const last = new Map();
    for (const r of records) last.set(r.key, r.state);
    for (const [key, state] of last) if (IN_DOUBT.has(state)) this.settling.add(key);
    return records;
  }

  planOf(op) {
    return `${this.task.id}|${op.key}|${op.input.resource}@${op.input.version}`;
  }

  async inputStale(op) {
    // A re-send that settles a request already made is no new step of a plan; only a plan still open here is checked again.
    if (op.input && this.settling.has(op.key) && !memory().has(this.planOf(op))) return undefined;
    const stale = await super.inputStale(op);
    if (op.input && stale === undefined) memory().add(this.planOf(op));
    return stale;
  }
}

export default journalFrom('i01-open-plans', (env, task) => new OpenPlans(env, task));
