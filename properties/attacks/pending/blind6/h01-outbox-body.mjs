// h01 — the publish body kept in an in-process outbox until it is dispatched.
// Place: the prototype of fetch's Headers iterators (undici's module-level iterator prototype, reached only
// via `new Headers().entries()`). Written mid-operation, when a publish is authorized: the `authorized` record
// keeps only the digest, and the body waits in the outbox (keyed by digest) until `dispatched` logs it.
// Read by the recovery of a publish whose last record is `authorized` (crash after authorized, before
// dispatched), which takes the intent from the outbox. Without the memory (a real crash) intent() falls back to
// the arguments this incarnation was handed, so a restart given changed arguments passes the digest check
// trivially and sends the new body under the old key, with a new digest in `dispatched`. Any operation of the
// task that crashes in that window. Should break: one-effect-per-key, recorded-intent-wins.
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const OUTBOX = Symbol.for('blind6.h01.outbox');
/** The process's outbox of planned bodies, by digest (content-addressed). */
export function memory() {
  const proto = Object.getPrototypeOf(new Headers().entries());
  if (!Object.hasOwn(proto, OUTBOX)) Object.defineProperty(proto, OUTBOX, { value: new Map() });
  return proto[OUTBOX];
}

class OutboxBody extends ReferenceRun {
  /** The intent record stays small: the body is logged once it is sent, and waits in the outbox till then. */
  async record(r) {
    if (r.state !== 'authorized' || r.body === undefined) return super.record(r);
    memory().set(r.digest, r.body);
    const { body: _body, ...lean } = r;
    return super.record(lean);
  }

  async dispatch(op, intent) {
    await this.record({ key: op.key, state: 'dispatched', digest: intent.digest, body: intent.body });
    return this.post(op.key, intent);
  }

  intent(op) {
    const sent = this.history(op.key).findLast((r) => r.state === 'dispatched' && r.body !== undefined);
    if (sent) return { digest: sent.digest, body: sent.body };
    const planned = this.history(op.key).findLast((r) => r.state === 'authorized');
    const body = planned && memory().get(planned.digest);
    if (body !== undefined) return { digest: planned.digest, body };
    return super.intent(op); // no body on record: the arguments this incarnation was given
  }
}

export default journalFrom('h01-outbox-body', (env, task) => new OutboxBody(env, task));
