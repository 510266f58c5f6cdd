/**
 * env.store under simulation: every call is a step. The call reaches the store when the step runs
 * (the store applies it then, or not, by the scenario's fault for its index); the answer comes
 * back store.latencyMs later in virtual time — or never, for a timeout fault, and the call then
 * rejects with a StoreTimeoutError after store.timeoutMs. A dead process's calls never settle.
 */
import type { Lease, LeaseResult, Store, StoreEntry, StoreWriteResult } from '../../model/contract/contract.js';
import type { Proc } from '../world/proc.js';
import { describeStoreCall, storeStepDetail, type StoreAnswer, type StoreRequest } from '../store/store.js';

export { storeStepDetail } from '../store/store.js';
import type { StepHost } from '../world/host.js';

/** What a store call that got no answer rejects with: it may or may not have been applied. */
export class StoreTimeoutError extends Error {
  override readonly name = 'StoreTimeoutError';
  constructor(op: string, timeoutMs: number) {
    super(`the store did not answer ${op} within ${timeoutMs} ms; it may or may not have applied it`);
  }
}

const leaseResult = (answer: StoreAnswer): LeaseResult =>
  answer.ok ? { ok: true, lease: answer.lease as Lease } : { ok: false, reason: answer.reason === 'conflict' || answer.reason === 'lease' ? 'held' : answer.reason, ...(answer.lease ? { lease: answer.lease } : {}) };

const writeResult = (answer: StoreAnswer): StoreWriteResult =>
  answer.ok ? { ok: true, version: answer.version as number } : { ok: false, reason: answer.reason === 'lease' ? 'lease' : 'conflict', ...(answer.version !== undefined ? { version: answer.version } : {}) };

export function simulatedStore(world: StepHost, proc: Proc): Store {
  return storeOver(<T>(request: StoreRequest, shape: (answer: StoreAnswer) => T): Promise<T> =>
    world.step<T>(proc, `store.${request.op}`, storeStepDetail(request), (complete) => {
      if (request.op === 'put') world.notePayload(`store ${request.key}\n${request.value}`);
      const made = world.store.call(request, proc.name, world.trace.length);
      world.record({ actor: 'store', op: request.op, detail: describeStoreCall(made) });
      const { latencyMs, timeoutMs } = world.store.config;
      if (made.fault === 'timeout-after-apply' || made.fault === 'timeout-before-apply') {
        world.procTimer(proc, timeoutMs, 'store timeout', () => complete({ ok: false, error: new StoreTimeoutError(request.op, timeoutMs), note: 'store timeout' }));
      } else {
        world.procTimer(proc, latencyMs, 'store answer', () => complete({ ok: true, value: shape(made.answer) }));
      }
    }));
}

/**
 * The Store API over one function that carries a call to the store and shapes its answer: the
 * simulated store's steps above, or a confirmation's real client (src/confirm/storeClient.ts), so
 * both send the same requests and give the journal the same results.
 */
export function storeOver(call: <T>(request: StoreRequest, shape: (answer: StoreAnswer) => T) => Promise<T>): Store {
  return {
    get: (key) => call({ op: 'get', key }, (a) => (a.ok ? a.entry : undefined) as StoreEntry | undefined),
    put: (key, value, options = {}) =>
      call({ op: 'put', key, value, ...(options.ifVersion !== undefined ? { ifVersion: options.ifVersion } : {}), ...(options.ifAbsent ? { ifAbsent: true } : {}), ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}), ...(options.lease ? { lease: { ...options.lease } } : {}) }, writeResult),
    delete: (key, options = {}) => call({ op: 'delete', key, ...(options.ifVersion !== undefined ? { ifVersion: options.ifVersion } : {}), ...(options.lease ? { lease: { ...options.lease } } : {}) }, writeResult),
    list: (prefix) => call({ op: 'list', prefix }, (a) => (a.ok ? (a.entries ?? []) : [])),
    now: () => call({ op: 'now' }, (a) => (a.ok ? (a.nowMs as number) : Number.NaN)),
    lease: {
      acquire: (name, { holder, ttlMs }) => call({ op: 'acquire', name, holder, ttlMs }, leaseResult),
      renew: (name, { token, ttlMs }) => call({ op: 'renew', name, token, ttlMs }, leaseResult),
      release: (name, options) => call({ op: 'release', name, ...('force' in options ? { force: true, reason: options.reason } : { token: options.token }) }, leaseResult),
    },
  };
}

/** A store call's step detail in the trace: the key, the prefix, or the lease. */
