/**
 * The human operator: at a scenario-chosen step it takes the task over. Its procedure, in order:
 * a forced release of the task's lease (audited in the store, with its reason), a takeover lease
 * for itself, and the service fenced at the takeover lease's token — so no agent write under an
 * older token can land while it works. After holdMs it hands back: a structured result in the
 * store (<task id>/handback) and the release of its lease. Agents must keep off the task between.
 */
import { describeStoreCall, type StoreCore, type StoreRequest } from '../store/store.js';

export const OPERATOR = 'operator';

/** What the operator acts on: the world (an EventHost), or a confirmation's real run (src/confirm/realRun.ts). */
export interface OperatorHost {
  readonly scenario: { readonly task: { readonly id: string } };
  readonly store: StoreCore;
  readonly service: { fence(token: number): void };
  readonly clock: { at(delayMs: number, label: string, fire: () => void): unknown };
  /** Its length is the trace position of the next entry. */
  readonly trace: { readonly length: number };
  record(entry: { actor: string; op: string; detail: string }): void;
}

export function takeOver(world: OperatorHost, holdMs: number): void {
  const name = world.scenario.task.id;
  const call = (request: StoreRequest) => {
    const made = world.store.call(request, OPERATOR, world.trace.length);
    world.record({ actor: OPERATOR, op: request.op, detail: describeStoreCall(made) });
    return made;
  };
  world.record({ actor: OPERATOR, op: 'takeover', detail: `the operator takes task ${name} over for ${holdMs} ms` });
  call({ op: 'release', name, force: true, reason: 'operator takeover' });
  const granted = call({ op: 'acquire', name, holder: OPERATOR, ttlMs: holdMs + 1 }).answer;
  const token = granted.ok ? granted.lease?.token : undefined;
  if (token !== undefined) {
    world.service.fence(token);
    world.record({ actor: OPERATOR, op: 'fence', detail: `the service refuses fencing tokens below ${token} from now on` });
  }
  world.clock.at(holdMs, 'operator hands back', () => {
    const result = { by: OPERATOR, decision: 'resume', checked: 'the external resources and the recorded events agree', heldMs: holdMs };
    call({ op: 'put', key: `${name}/handback`, value: JSON.stringify(result) });
    if (token !== undefined) call({ op: 'release', name, token });
    world.record({ actor: OPERATOR, op: 'handback', detail: `the operator hands task ${name} back: resume` });
  });
}
