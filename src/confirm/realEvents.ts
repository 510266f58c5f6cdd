/**
 * A scenario's timed events, carried out for real between the workers' steps (the simulator's
 * events, confirm's way): a user's save, a cancel file, a changed input, a service or store restart,
 * a store edit, an operator's takeover, a duplicate delivery, a concurrent call. Each is written to the trace as the
 * simulator writes it.
 */
import type { JudgeInput, TraceLine } from '../../model/evidence.js';
import type { RealDisk } from './realDisk.js';
import { cancelFileOf, type Fault, type Scenario } from '../../simulator/scenario/scenario.js';
import type { ServiceCore } from '../../simulator/service/service.js';
import { describeStoreCall, type StoreCore, type StoreRequest } from '../../simulator/store/store.js';
import type { VirtualClock } from '../../simulator/world/clock.js';
import { takeOver } from '../../simulator/world/operator.js';
import { userSave } from './realFolder.js';

/** What an event acts on: the run's real folder and the disk model that follows it, the service, the store, and the trace. */
export interface RealEventTarget {
  scenario: Scenario;
  dir: string;
  realDisk: RealDisk | undefined;
  core: ServiceCore;
  storeCore: StoreCore;
  clock: VirtualClock;
  trace: TraceLine[];
  userEdits: JudgeInput['userEdits'];
  /** Real milliseconds since the run started. */
  elapsedMs: () => number;
  record: (actor: string, op: string, detail: unknown) => void;
  /** Starts one more worker process with the task (a duplicate delivery), named by the caller. */
  deliverAgain: () => void;
  /** Hands the task again to worker `pid`'s running process (a concurrent call). */
  callAgain: (pid: number) => void;
}

/** A user's save of `text` at `path`: in the real folder, then in the disk model (which has caught up with the workers' calls first). */
function save(to: RealEventTarget, path: string, text: string): void {
  userSave(to.dir, path, text);
  to.realDisk?.catchUp();
  to.realDisk?.disk.userWrite(path, text);
}

/** Carries out one timed fault (crashes, I/O errors, pauses and response faults are the workers' and the service's own). */
export function fireRealEvent(to: RealEventTarget, fault: Fault): void {
  const { scenario, core, storeCore, record } = to;
  if (fault.kind === 'user-edit') {
    save(to, fault.path, fault.text);
    to.userEdits.push({ seq: to.trace.length, timeMs: to.elapsedMs(), path: fault.path, text: fault.text });
    record('user', 'edit', `${fault.path}`);
  } else if (fault.kind === 'cancel') {
    const reason = fault.reason ?? 'cancelled by the user';
    save(to, cancelFileOf(scenario.task.id), `${JSON.stringify({ reason })}\n`);
    record('user', 'cancel', `${cancelFileOf(scenario.task.id)} ← the task is cancelled: ${reason}`);
  } else if (fault.kind === 'input-change') {
    core.changeResource(fault.resource, fault.value);
    record('user', 'input-change', `the service's resource ${fault.resource} ← ${JSON.stringify(fault.value)}`);
  } else if (fault.kind === 'service-restart') core.restart();
  else if (fault.kind === 'store-restart') {
    storeCore.restart(to.trace.length);
    record('store', 'restart', `the store restarts (${storeCore.config.memory} memory${storeCore.config.memory === 'volatile' ? ': every key and lease is gone' : ''})`);
  } else if (fault.kind === 'store-edit') {
    const request: StoreRequest = fault.value === null ? { op: 'delete', key: fault.key } : { op: 'put', key: fault.key, value: fault.value };
    record('user', 'store-edit', describeStoreCall(storeCore.call(request, 'user', to.trace.length)));
  } else if (fault.kind === 'takeover') {
    // The operator's procedure, as simulated; its hand-back comes holdMs later in real time.
    takeOver({ scenario, store: storeCore, service: core, clock: to.clock, trace: to.trace, record: (entry) => record(entry.actor, entry.op, entry.detail) }, fault.holdMs);
  } else if (fault.kind === 'duplicate-delivery') to.deliverAgain();
  else if (fault.kind === 'concurrent-call') to.callAgain(fault.process);
}
