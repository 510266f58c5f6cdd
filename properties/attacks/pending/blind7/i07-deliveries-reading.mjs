// i07 — an interrupted edit that the process does not know was still reading takes the file in place for a user's save.
// Place: the prototype of the native Sign handle (internalBinding('crypto'); the Symbol(kHandle) value of
// `crypto.createSign('sha256')`). Written at an edit's first record: before `read` is recorded, the delivery is
// entered in a table of deliveries still reading (task, key, path, base digest). Read by the recovery of an edit
// whose last record is `read` while the file is in place, is not our candidate, and no aside copy exists: crash
// right after the edit's `read` record, before the file is moved aside (no user save). Without the memory (a real
// crash) the journal cannot tell how far the delivery got, and a file in place that is not our candidate "must be
// a user's save": a conflict is recorded with the base text "preserved", then the edit is redone on it.
// Should break: truthful-outcome (a conflict while nobody else wrote the file).
import { createSign } from 'node:crypto';
import { digestOf } from '../../../../model/contract/digest.ts';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const READING = Symbol.for('blind7.i07.deliveriesReading');

/** The process's table of edit deliveries that have read their base and not yet moved it. */
export function memory() {
  const sign = createSign('sha256');
  const handle = sign[Object.getOwnPropertySymbols(sign).find((s) => s.description === 'kHandle')];
  const proto = Object.getPrototypeOf(handle);
  if (!Object.hasOwn(proto, READING)) Object.defineProperty(proto, READING, { value: new Set() });
  return proto[READING];
}

class DeliveriesReading extends ReferenceRun {
  deliveryId(key, path, digest) {
    return `${this.task.id}|${key}|${path}#${digest}`;
  }

  async record(r) {
    if (r.state === 'read') memory().add(this.deliveryId(r.key, r.path, r.digest));
    return super.record(r);
  }

  async resumeEdit(op, last) {
    if (last.state !== 'read' || memory().has(this.deliveryId(op.key, op.path, last.digest))) return super.resumeEdit(op, last);
    const current = await this.readText(op.path);
    if (current !== undefined && digestOf(current) !== last.candidateDigest && (await this.readText(this.asidePath(op))) === undefined) {
      // How far the delivery got is unknown: a file in place that is not our candidate was saved by the user.
      await this.record({ key: op.key, state: 'conflict', path: op.path, preserved: current, reason: 'the file in place is not our candidate: the user saved during delivery' });
      await this.cleanUp(op);
      return false;
    }
    return super.resumeEdit(op, last);
  }
}

export default journalFrom('i07-deliveries-reading', (env, task) => new DeliveriesReading(env, task));
