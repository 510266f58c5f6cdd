// Own attack (fifteenth session, on the two real restarts there were then: early and late): memory kept where the restore does not reach, read only
// when a restarted incarnation recovers a request that was in flight at the crash. The journal remembers "I sent
// this key" while its request is out; recovering a dispatched key, it asks the service when it remembers the send
// and re-sends blindly when it does not ("if this process did not send it, it was not sent"). Simulated, the memory
// survives the crash, so it always asks: clean. In real processes the memory dies, and a crash in flight re-sends
// blindly (no-blind-retry). Neither restart crashes in flight: the early one before any key's first step, the late
// one before the last key's first step, when every earlier key has its receipt.
import util from 'node:util';
import { journalFrom, ReferenceRun } from '../../../../src/journals/reference.ts';

function place() { let got; util.debuglog('atk_in_flight', (fn) => { got = fn; })(''); return got; }

class InFlightMemory extends ReferenceRun {
  async dispatch(op, intent) {
    place()[`sent:${this.task.id}:${op.key}`] = true;
    return super.dispatch(op, intent);
  }

  async recover(op, intent, sends) {
    if (place()[`sent:${this.task.id}:${op.key}`] === true || sends >= this.settings.maxSends) return super.recover(op, intent, sends);
    await this.record({ key: op.key, state: 'reconciling', digest: intent.digest });
    return 'send';
  }
}

export default journalFrom('in-flight-memory', (env, task) => new InFlightMemory(env, task));
