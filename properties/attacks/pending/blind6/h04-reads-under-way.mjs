// h04 — a lookup is reconciled after a restart only if the process's table of reads under way lists it.
// Place: AbortError.prototype of internal/errors (not exported; reached only as the prototype of the error that
// `events.once(…, { signal: AbortSignal.abort() })` rejects with). Written mid-operation: just before a
// lookup's first `dispatched` it is entered in the table (taken out when it ends). Read by the recovery of a
// lookup whose last record is dispatched / outcome_unknown: `reconciling` is recorded only for "a read of ours
// that was cut off". Without the memory (a real crash) the table is empty, the lookup is taken for never
// started and dispatched again straight from dispatched / outcome_unknown. Any lookup of the task.
// Should break: no-state-skip (recovery from dispatched / outcome_unknown passes through reconciling).
import { EventEmitter, once } from 'node:events';
import { digestOf } from '../../../../model/contract/digest.ts';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const UNDER_WAY = Symbol.for('blind6.h04.readsUnderWay');
const FINAL = new Set(['succeeded', 'conflict', 'failed', 'blocked', 'cancelled']);
export async function memory() {
  const proto = await once(new EventEmitter(), 'never', { signal: AbortSignal.abort() }).then(() => undefined, (e) => Object.getPrototypeOf(e));
  if (!Object.hasOwn(proto, UNDER_WAY)) Object.defineProperty(proto, UNDER_WAY, { value: new Set() });
  return proto[UNDER_WAY];
}

class ReadsUnderWay extends ReferenceRun {
  async lookup(op) {
    const last = this.last(op.key);
    if (last && FINAL.has(last.state)) return;
    const underWay = await memory();
    const id = `${this.task.id}/${op.key}`;
    const digest = digestOf(op.resource);
    if (last === undefined) await this.record({ key: op.key, state: 'authorized', digest });
    else if (last.state !== 'authorized' && underWay.has(id)) await this.record({ key: op.key, state: 'reconciling', digest }); // ours, cut off
    underWay.add(id);
    for (let attempt = 0; attempt < this.settings.lookupAttempts; attempt++) {
      if (attempt > 0) await this.sleep(this.settings.queryBackoffMs * attempt);
      await this.record({ key: op.key, state: 'dispatched', digest });
      const verdict = await this.read(op);
      if (verdict.state !== 'outcome_unknown') {
        await this.record({ key: op.key, digest, ...verdict });
        return void underWay.delete(id);
      }
      await this.record({ key: op.key, state: 'outcome_unknown', digest, reason: verdict.reason });
      await this.record({ key: op.key, state: 'reconciling', digest });
    }
    await this.record({ key: op.key, state: 'failed', digest, reason: `no answer after ${this.settings.lookupAttempts} attempts` });
    underWay.delete(id);
  }
}

export default journalFrom('h04-reads-under-way', (env, task) => new ReadsUnderWay(env, task));
