/**
 * The faults of every family that can land at one point of a fault-free run — explore's depth 1
 * beyond crashes and I/O errors (crashExplorer.ts). Each is placed exactly where it strikes, so
 * everything before it replays the base run unchanged:
 *
 * - at the step (a worker step, before it is granted): a pause of the worker's clock past any lease
 *   (store family), and the events that fire just before that global step — a duplicate delivery,
 *   a concurrent call into the running process (only when the concurrent family is asked for), a
 *   service restart, a store restart and an operator's takeover (store), someone else's projection
 *   right after the journal wrote its own (store, as check draws it: a journal's own records deleted
 *   under it is no fault it could survive), the user's cancel, a save of every file
 *   the task edits, and a new version of every resource a publish was planned from (user);
 * - at the requests the step made (in a fault-free run, its fetch made one): every answer of the
 *   service's fault model (response; a delay both short and past any timeout) and every failure
 *   class (failure; a 503 asking for a short wait and one longer than any reconciliation);
 * - at the shared-store calls the step made: every store-call fault (store).
 *
 * A family the journal cannot meet at that point (the store when it never calls the store, input
 * changes when no publish names its input) is not tried there.
 */
import {
  FAILURE_CLASS_FAULTS,
  RESPONSE_FAULTS,
  STORE_CALL_FAULTS,
  taskPaths,
  type Fault,
  type ResponseFaultKind,
  type Scenario,
  type ScenarioStore,
} from '../../simulator/scenario/scenario.js';
import type { FaultKind, TaskFeature } from '../arbitraries.js';
import { changedIntent } from '../changedIntent.js';

/** A pause longer than any lease a journal takes in the generated runs (their pauses: 2, 12 and 30 s). */
export const EXPLORE_PAUSE_MS = 30_000;
/** A response delayed past any timeout a journal sets, and a 503's wait longer than any reconciliation (the defaults, 1 s, are within most). */
export const EXPLORE_LONG_DELAY_MS = 60_000;
/** How long an explored takeover holds the task (the generated runs': 2 or 20 s). */
export const EXPLORE_TAKEOVER_MS = 20_000;

/** Where a worker step is, and what it asked of the service and the store. */
export interface WindowPoint {
  pid: number;
  incarnation: number;
  step: number;
  /** The step's global index: an event placed at it fires just before it. */
  globalStep: number;
  /** The service's indices of the requests this step made. */
  requests: readonly number[];
  /** The store's indices of the calls this step made. */
  storeCalls: readonly number[];
  /** Keys the worker's previous step put in the store (someone else's write lands right after). */
  storeKeys: readonly string[];
}

export interface WindowFault {
  family: FaultKind;
  fault: Fault;
  /** Tells the fault apart from the others at its point (one judged state each). */
  label: string;
  /** The store the run needs for the fault (a stale read needs a store that allows them). */
  store?: ScenarioStore;
  /** The scheduling choices the run needs with it (a duplicate worker that takes the first step after it starts). */
  schedule?: number[];
}

export interface WindowContext {
  base: Scenario;
  families: ReadonlySet<FaultKind>;
  /** Whether the journal calls the shared store at all in the base run. */
  usesStore: boolean;
  /** The task features in play (the task shape; default: all): a cancel is tried only with `cancel`. */
  features?: readonly TaskFeature[];
}

const responseFault = (request: number, fault: ResponseFaultKind): Fault => ({ kind: 'response', request, fault });

/** Every fault of the asked families that can land at `point` (a worker step of the base run). */
export function windowFaultsAt(point: WindowPoint, context: WindowContext): WindowFault[] {
  const { base, families, usesStore } = context;
  const out: WindowFault[] = [];
  const add = (family: FaultKind, label: string, fault: Fault, store?: ScenarioStore): void => {
    if (families.has(family)) out.push({ family, fault, label, ...(store ? { store } : {}) });
  };
  const atStep = point.globalStep;
  add('duplicate', 'duplicate delivery', { kind: 'duplicate-delivery', atStep });
  // ...and the same delivery with the newcomer taking the first step once both are ready (a race a
  // check-then-act lease loses): only where the base makes no scheduling choices of its own.
  if (families.has('duplicate') && base.schedule.length === 0) out.push({ family: 'duplicate', fault: { kind: 'duplicate-delivery', atStep }, label: 'duplicate delivery, the newcomer first', schedule: [1] });
  add('concurrent', 'concurrent call', { kind: 'concurrent-call', atStep, process: point.pid });
  add('service-restart', 'service restart', { kind: 'service-restart', atStep });
  if (context.features === undefined || context.features.includes('cancel')) add('user', 'cancel', { kind: 'cancel', atStep });
  for (const path of taskPaths(base)) add('user', `user saves ${path}`, { kind: 'user-edit', atStep, path, text: 'the user rewrote this file\n' });
  const planned = new Set([...base.task.operations, ...(base.taskAfterRestart?.operations ?? [])].flatMap((op) => (op.kind === 'publish' && op.input ? [op.input.resource] : [])));
  for (const resource of [...planned].sort()) add('user', `input ${resource} changes`, { kind: 'input-change', atStep, resource, value: `${base.service.resources[resource] ?? 'v1'}-changed` });
  if (usesStore) {
    add('store', 'pause', { kind: 'pause', process: point.pid, incarnation: point.incarnation, step: point.step, pauseMs: EXPLORE_PAUSE_MS });
    add('store', 'store restart', { kind: 'store-restart', atStep });
    add('store', 'takeover', { kind: 'takeover', atStep, holdMs: EXPLORE_TAKEOVER_MS });
    // Someone else's projection lands right after the journal wrote its own (as check draws it): it folds no event the store holds.
    const projection = `${base.task.id}/projection`;
    if (point.storeKeys.includes(projection)) add('store', `someone else's ${projection}`, { kind: 'store-edit', atStep, key: projection, value: JSON.stringify({ events: 0, digest: '0'.repeat(64) }) });
  }
  for (const request of point.requests) {
    for (const fault of RESPONSE_FAULTS) add('response', `request #${request} ${fault}`, responseFault(request, fault));
    add('response', `request #${request} delay ${EXPLORE_LONG_DELAY_MS}ms`, { kind: 'response', request, fault: 'delay', delayMs: EXPLORE_LONG_DELAY_MS });
    for (const fault of FAILURE_CLASS_FAULTS) add('failure', `request #${request} ${fault}`, responseFault(request, fault));
    add('failure', `request #${request} unavailable, retry after ${EXPLORE_LONG_DELAY_MS}ms`, { kind: 'response', request, fault: 'unavailable', retryAfterMs: EXPLORE_LONG_DELAY_MS });
  }
  for (const call of point.storeCalls) {
    for (const fault of STORE_CALL_FAULTS) add('store', `store call #${call} ${fault}`, { kind: 'store-call', call, fault }, fault === 'stale-read' ? { ...base.store, consistency: 'stale-reads' } : undefined);
  }
  return out;
}

/**
 * The intent family: the task changes for the next incarnation — every publish's body moves on a
 * version (v1 → v2), or one JSON value or form field of it changes (changedIntent.ts), as check
 * draws it — and, in a second variant, another writer has already
 * registered the new body under the first key. Explore pairs each with a process kill at every
 * point (a changed intent only matters after a restart). None when the task already changes, or
 * has no publish.
 */
export function intentChanges(base: Scenario): { label: string; change: Pick<Scenario, 'taskAfterRestart'> & Partial<Pick<Scenario, 'service'>> }[] {
  if (base.taskAfterRestart !== undefined || !base.task.operations.some((op) => op.kind === 'publish')) return [];
  const operations = base.task.operations.map((op) => (op.kind === 'publish' ? { ...op, body: changedIntent(op.body, { contract: base.service.contract, plainSuffix: ' (v2)' }) } : { ...op }));
  const first = operations.find((op) => op.kind === 'publish');
  const existing = first?.kind === 'publish' ? [{ key: first.key, body: first.body }] : [];
  return [
    { label: 'the task changes', change: { taskAfterRestart: { operations } } },
    { label: 'the task changes, the new intent already registered', change: { taskAfterRestart: { operations }, service: { ...base.service, existing: [...base.service.existing, ...existing] } } },
  ];
}
