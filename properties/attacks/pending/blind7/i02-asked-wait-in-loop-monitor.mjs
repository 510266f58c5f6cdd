// i02 — a 503's wait is kept by the process (beside its event-loop monitor), not in the outcome_unknown record.
// Place: ELDHistogram.prototype (internal/perf/event_loop_delay, not exported; reached only as the prototype of
// `perf_hooks.monitorEventLoopDelay()`, never enabled). Written mid-operation, after the service answered: when a
// publish gets a 503 its wait (nextAttemptAtMs, computed as the reference computes it) is kept in an instance map
// for this incarnation and in the place, keyed by task, key, digest and the 503's ordinal in the key's log; the
// `outcome_unknown` record keeps errorClass 'unavailable' but not the time. Read by waitAsAsked before the re-send
// in the recovery of a publish that heard its 503 in an earlier incarnation — aimed at post-b (a middle publish):
// 503 answered, outcome_unknown recorded, crash before the retry. Without the memory (a real crash) no wait is
// known and the re-send leaves as soon as the reconciling queries end, sooner than the 503 asked.
// Should break: failure-class-respected.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const ASKED = Symbol.for('blind7.i02.askedWaits');

/** The process's scheduler hints: when each operation that heard a 503 may be sent again. */
export function memory() {
  const proto = Object.getPrototypeOf(monitorEventLoopDelay());
  if (!Object.hasOwn(proto, ASKED)) Object.defineProperty(proto, ASKED, { value: new Map() });
  return proto[ASKED];
}

const heard503 = (r) => r.state === 'outcome_unknown' && r.errorClass === 'unavailable';

class AskedWaitInLoopMonitor extends ReferenceRun {
  /** The waits this incarnation heard, per key. */
  asked = new Map();

  waitId(key, digest, ordinal) {
    return `${this.task.id}|${key}|${digest}|${ordinal}`;
  }

  async record(r) {
    if (r.state !== 'outcome_unknown' || r.nextAttemptAtMs === undefined) return super.record(r);
    // The wait goes to the scheduler; the record says the service is unavailable.
    memory().set(this.waitId(r.key, r.digest, this.history(r.key).filter(heard503).length), r.nextAttemptAtMs);
    this.asked.set(r.key, r.nextAttemptAtMs);
    const { nextAttemptAtMs: _next, ...lean } = r;
    return super.record(lean);
  }

  async waitAsAsked(key) {
    let next = this.asked.get(key);
    if (next === undefined) {
      const heard = this.history(key).filter(heard503);
      const last = heard.at(-1);
      if (last !== undefined) next = memory().get(this.waitId(key, last.digest, heard.length - 1));
    }
    if (next === undefined) return;
    const now = await this.env.clock.now();
    if (next > now) await this.sleep(next - now);
  }
}

export default journalFrom('i02-asked-wait-in-loop-monitor', (env, task) => new AskedWaitInLoopMonitor(env, task));
