/**
 * A scenario event that is not a fault at a step: the user saves a file (in place and durably,
 * stamped with virtual time), the service or the store restarts, someone writes to the store, an
 * operator takes the task over, or the task is delivered again: to a new worker, or as a second
 * call in a running one.
 */
import { atVirtualTime } from '../sandbox/ambientGuard.js';
import type { Fault } from '../scenario/scenario.js';
import { preview } from './trace.js';
import type { EventHost } from './host.js';
import { takeOver } from './operator.js';
import { cancelFileOf } from '../scenario/scenario.js';
import { describeStoreCall, type StoreRequest } from '../store/store.js';

export function fireScenarioEvent(world: EventHost, fault: Fault): void {
  switch (fault.kind) {
    case 'user-edit':
      atVirtualTime(world.clock.epochMs, () => world.disk.userWrite(fault.path, fault.text));
      world.userEdits.push({ seq: world.trace.length, timeMs: world.clock.nowMs, path: fault.path, text: fault.text });
      world.record({ actor: 'user', op: 'edit', detail: `${fault.path} ← ${preview(fault.text)}` });
      return;
    case 'service-restart':
      world.service.restart();
      return;
    case 'store-restart':
      world.store.restart(world.trace.length);
      world.record({ actor: 'store', op: 'restart', detail: `the store restarts (${world.store.config.memory} memory${world.store.config.memory === 'volatile' ? ': every key and lease is gone' : ''})` });
      return;
    case 'input-change':
      world.service.changeResource(fault.resource, fault.value);
      world.record({ actor: 'user', op: 'input-change', detail: `the service's resource ${fault.resource} ← ${JSON.stringify(fault.value)}` });
      return;
    case 'cancel': {
      const path = cancelFileOf(world.scenario.task.id);
      const reason = fault.reason ?? 'cancelled by the user';
      atVirtualTime(world.clock.epochMs, () => world.disk.userWrite(path, `${JSON.stringify({ reason })}\n`));
      world.record({ actor: 'user', op: 'cancel', detail: `${path} ← the task is cancelled: ${reason}` });
      return;
    }
    case 'store-edit': {
      const request: StoreRequest = fault.value === null ? { op: 'delete', key: fault.key } : { op: 'put', key: fault.key, value: fault.value };
      world.record({ actor: 'user', op: 'store-edit', detail: describeStoreCall(world.store.call(request, 'user', world.trace.length)) });
      return;
    }
    case 'takeover':
      takeOver(world, fault.holdMs);
      return;
    case 'duplicate-delivery': {
      const pid = world.procs.length;
      world.record({ actor: 'supervisor', op: 'duplicate-delivery', detail: `the task is delivered again to worker-${pid}` });
      world.spawn(pid, 0);
      return;
    }
    case 'concurrent-call':
      world.callAgain(fault.process);
      return;
    default:
      return;
  }
}
