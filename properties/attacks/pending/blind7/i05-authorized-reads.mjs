// i05 — an authorized lookup the process did not authorize itself is reconciled before it is sent.
// Place: the prototype of undici's FormData iterators (distinct from the Headers one; reached only as the
// prototype of `new FormData().entries()`). Written at a lookup's first record: before `authorized` is
// recorded, the read is entered in a table of reads this process authorized (task, key, resource digest). Read by
// the recovery of a lookup whose last record is `authorized`: crash right after the lookup's first record, before
// its `dispatched`. Without the memory (a real crash) the read is taken for one the dead process may have sent,
// and `reconciling` is recorded first, straight from `authorized`, before it is dispatched again.
// Should break: no-state-skip (authorized → reconciling is not a transition of the model).
import { digestOf } from '../../../../model/contract/digest.ts';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const AUTHORIZED = Symbol.for('blind7.i05.authorizedReads');
const FINAL = new Set(['succeeded', 'conflict', 'failed', 'blocked', 'cancelled']);

/** The process's table of reads it authorized. */
export function memory() {
  const proto = Object.getPrototypeOf(new FormData().entries());
  if (!Object.hasOwn(proto, AUTHORIZED)) Object.defineProperty(proto, AUTHORIZED, { value: new Set() });
  return proto[AUTHORIZED];
}

class AuthorizedReads extends ReferenceRun {
  readId(key, digest) {
    return `${this.task.id}|${key}|${digest}`;
  }

  async lookup(op) {
    const last = this.last(op.key);
    if (last && FINAL.has(last.state)) return;
    const digest = digestOf(op.resource);
    const id = this.readId(op.key, digest);
    if (last === undefined) {
      memory().add(id);
      await this.record({ key: op.key, state: 'authorized', digest });
    } else if (last.state !== 'authorized' || !memory().has(id)) {
      // In doubt — or authorized by a process we know nothing of, which may have sent the read before it died.
      await this.record({ key: op.key, state: 'reconciling', digest });
    }
    for (let attempt = 0; attempt < this.settings.lookupAttempts; attempt++) {
      if (attempt > 0) await this.sleep(this.settings.queryBackoffMs * attempt);
      await this.record({ key: op.key, state: 'dispatched', digest });
      const verdict = await this.read(op);
      if (verdict.state !== 'outcome_unknown') {
        await this.record({ key: op.key, digest, ...verdict });
        return;
      }
      await this.record({ key: op.key, state: 'outcome_unknown', digest, reason: verdict.reason });
      await this.record({ key: op.key, state: 'reconciling', digest });
    }
    await this.record({ key: op.key, state: 'failed', digest, reason: `no answer after ${this.settings.lookupAttempts} attempts` });
  }
}

export default journalFrom('i05-authorized-reads', (env, task) => new AuthorizedReads(env, task));
