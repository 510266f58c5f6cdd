/**
 * The fault families a scenario uses: which of check's --faults (arbitraries.FAULT_KINDS) a run
 * must draw for a scenario like it, read from its faults as check and explore place them —
 *
 *   crash            a process kill (a crash in `keep-all` mode)
 *   disk             a machine crash (any other crash mode: lose-unsynced, per-file, torn-tail, torn-write)
 *   io               an I/O error
 *   response         a lost, mangled, delayed, 409, 202 or 500 answer
 *   failure          a failure class: 400, 403, 503 with its wait, a reset after the commit
 *   duplicate        a duplicate delivery
 *   concurrent       a concurrent call in the running process
 *   user             a user's save, a cancel, a changed input
 *   service-restart  a service restart
 *   intent           a task that changes after a restart (taskAfterRestart), with the kill that
 *                    restarts it when that is its only crash
 *   store            a store call's fault, a store restart, a takeover, someone else's store write, a pause
 *                    (a pause as long as the contract's key time-to-live or longer is `response`'s:
 *                    a late retry finds the key forgotten; the store's own pauses stay shorter)
 *
 * — so that `check` skips a stored regression of a family it no longer draws, and `durasim
 * regressions` lists and prunes by family. The service's and store's settings are not faults: a
 * user's own task (--task) may set them in every run.
 */
import { FAILURE_CLASS_FAULTS, type Fault, type Scenario } from '../simulator/scenario/scenario.js';
import { FAULT_KINDS, type FaultKind } from './arbitraries.js';

/** The family of a fault; `ttlMs`: the time-to-live of a key under the scenario's contract, if it has one. */
function familyOf(fault: Fault, ttlMs: number | undefined): FaultKind {
  switch (fault.kind) {
    case 'crash':
      return (fault.mode ?? 'keep-all') === 'keep-all' ? 'crash' : 'disk';
    case 'io-error':
      return 'io';
    case 'response':
      return (FAILURE_CLASS_FAULTS as readonly string[]).includes(fault.fault) ? 'failure' : 'response';
    case 'duplicate-delivery':
      return 'duplicate';
    case 'concurrent-call':
      return 'concurrent';
    case 'user-edit':
    case 'cancel':
    case 'input-change':
      return 'user';
    case 'service-restart':
      return 'service-restart';
    case 'store-call':
    case 'store-restart':
    case 'takeover':
    case 'store-edit':
      return 'store';
    case 'pause':
      return ttlMs !== undefined && fault.pauseMs >= ttlMs ? 'response' : 'store';
  }
}

/** The families a scenario uses, in FAULT_KINDS order. */
export function faultFamiliesOf(scenario: Scenario): FaultKind[] {
  const memory = scenario.service.contract?.memory;
  const ttlMs = typeof memory === 'object' ? memory.ttlMs : undefined;
  const used = new Set<FaultKind>(scenario.faults.map((fault) => familyOf(fault, ttlMs)));
  if (scenario.taskAfterRestart !== undefined) {
    used.add('intent');
    // The kill that restarts the worker into the changed task is the intent family's own, when it is the only kill.
    if (scenario.faults.filter((f) => f.kind === 'crash' && (f.mode ?? 'keep-all') === 'keep-all').length === 1) used.delete('crash');
  }
  return FAULT_KINDS.filter((family) => used.has(family));
}

/** The families a scenario uses that a run drawing `families` leaves out. */
export function familiesOutside(scenario: Scenario, families: readonly FaultKind[]): FaultKind[] {
  return faultFamiliesOf(scenario).filter((family) => !families.includes(family));
}
