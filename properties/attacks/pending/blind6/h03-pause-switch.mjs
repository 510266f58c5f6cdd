// h03 — a 403 pauses the task through a process-wide pause switch, not the log.
// Place: the prototype of WHATWG ReadableStream async iterators (internal/webstreams, reached only via
// `new ReadableStream()[Symbol.asyncIterator]()`). Written mid-operation, after the response: when a publish
// gets a 403, the switch for the run (a random id stamped on every record) is set before its `blocked` record,
// which carries no errorClass. Read by paused(), when claiming each later operation of the task (the middle
// and last ones after the refused one). Without the memory (a real crash) the switch is off after a restart and
// the log does not say why the operation was blocked, so the operations after the refused one are sent.
// Should break: failure-class-respected (a 403 pauses the task).
import { randomUUID } from 'node:crypto';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

const PAUSED = Symbol.for('blind6.h03.paused');
export function memory() {
  const stream = new ReadableStream();
  const proto = Object.getPrototypeOf(stream[Symbol.asyncIterator]());
  if (!Object.hasOwn(proto, PAUSED)) Object.defineProperty(proto, PAUSED, { value: new Set() });
  return proto[PAUSED];
}

class PauseSwitch extends ReferenceRun {
  async loadRecords() {
    const records = await super.loadRecords();
    this.run = records.find((r) => typeof r.run === 'string')?.run ?? randomUUID();
    return records;
  }

  async record(r) {
    return super.record({ ...r, run: this.run });
  }

  /** The supervisor's pause switch is flipped; the record says the operation is blocked, with the handoff. */
  async pause(key, intent, reason) {
    memory().add(this.run);
    await this.record({ key, state: 'blocked', digest: intent.digest, reason, handoff: this.handoff('restore the permission, then resume the task') });
  }

  paused() {
    return memory().has(this.run);
  }
}

export default journalFrom('h03-pause-switch', (env, task) => new PauseSwitch(env, task));
