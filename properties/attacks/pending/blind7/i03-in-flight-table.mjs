// i03 — after a cancel, a dispatched publish the process's in-flight table does not list is recorded cancelled.
// Place: ActiveChannel.prototype of diagnostics_channel (not exported; reached only as the prototype a channel
// takes while it has a subscriber: `dc.channel(sym).subscribe(noop)`, unsubscribed at once). Written
// mid-operation: just before a publish's `dispatched` record, the send is entered in an in-flight table (task,
// key, digest, send ordinal). Read by settleAfterCancel in an incarnation that starts with a publish left
// `dispatched` (its only dispatched record) and finds the cancel file — aimed at an earlier publish (post-a or
// post-b): crash after its request left and the service committed it, the user cancels before the restart.
// Without the memory (a real crash) the send is taken for one the process never released (as held() treats a
// gated send) and recorded cancelled at once: no reconciling, no query, although the effect is at the service.
// Should break: cancel-truth; no-state-skip (recovery from dispatched does not reconcile first).
import dc from 'node:diagnostics_channel';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const IN_FLIGHT = Symbol.for('blind7.i03.inFlight');
const PROBE = Symbol('blind7.i03.probe');

/** The process's in-flight table: sends released to the network layer. */
export function memory() {
  const channel = dc.channel(PROBE);
  const noop = () => {};
  channel.subscribe(noop);
  const proto = Object.getPrototypeOf(channel);
  channel.unsubscribe(noop);
  if (!Object.hasOwn(proto, IN_FLIGHT)) Object.defineProperty(proto, IN_FLIGHT, { value: new Set() });
  return proto[IN_FLIGHT];
}

class InFlightTable extends ReferenceRun {
  /** Keys this incarnation found dispatched when it started: a crash cut their send short. */
  cutShort = new Set();

  async loadRecords() {
    const records = await super.loadRecords();
    const last = new Map();
    for (const r of records) last.set(r.key, r.state);
    for (const [key, state] of last) if (state === 'dispatched') this.cutShort.add(key);
    return records;
  }

  sendId(key, digest, ordinal) {
    return `${this.task.id}|${key}|${digest}|${ordinal}`;
  }

  /** The send is entered in the in-flight table, then logged, then it leaves. */
  async dispatch(op, intent) {
    const ordinal = this.history(op.key).filter((r) => r.state === 'dispatched').length + 1;
    memory().add(this.sendId(op.key, intent.digest, ordinal));
    return super.dispatch(op, intent);
  }

  async settleAfterCancel() {
    for (const op of this.task.operations) {
      if (op.kind !== 'publish' || !this.cutShort.has(op.key)) continue;
      const last = this.last(op.key);
      const sends = this.history(op.key).filter((r) => r.state === 'dispatched').length;
      if (last?.state !== 'dispatched' || sends !== 1 || memory().has(this.sendId(op.key, last.digest, 1))) continue;
      // Never released to the network: nothing of it can have landed, as for a send the gate held back.
      await this.record({ key: op.key, state: 'cancelled', digest: last.digest, reason: 'the task was cancelled before this request left' });
    }
    return super.settleAfterCancel();
  }
}

export default journalFrom('i03-in-flight-table', (env, task) => new InFlightTable(env, task));
