import { endStep, everIn, keyMayHaveExpired, keyQueryOffered, operationSpec, sourceChanges, type JudgeInput } from '../evidence.js';
import { FINISHED_STATES, TERMINAL_OPERATION_STATES } from '../lifecycle.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';
import { taskIdOf } from './leases.js';
import { projectionLiesRead } from './projectionConsistent.js';
import { cancelledAt } from './cancellation.js';

/**
 * convergence (liveness): the run completes within its bounds and every operation ends terminal
 * (succeeded, conflict, failed, blocked; a file applied or conflict). blocked or outcome_unknown
 * is allowed only where the service offers no way to learn the outcome: no query (under a
 * contract: none by the key or a request's field), or volatile or no idempotency memory (a 404 may
 * be a forgotten key and a re-send may commit twice), a key whose time-to-live ran out since its
 * first send (the same, by the contract's clock), or an intent that changed before it was ever sent. A task that a worker quarantined (<task id>/quarantine in
 * the store) after it read a projection that does not fold the events (projection-consistent) is
 * waiting for a human, as it should: its operations may stop where they were. A quarantine without
 * such a read excuses nothing. A task the service refused with 403 (permission revoked) is paused
 * for a human: its operations may stop where they were; so may a cancelled task's (stopped, with
 * what is in doubt left to reconcile). An operation may end blocked when the
 * task's retry budget is spent (its sends, or the task's, reached it: counted in its recorded
 * dispatched states, or at the service), or when the source it was planned from changed.
 * A task that keeps temp files (task.temp) and finished — every operation ended and none blocked
 * or in doubt — leaves none of its temp files behind: its cleanup ran to the end.
 */
export function checkConvergence(input: JudgeInput): Violation[] {
  const end = endStep(input);
  if (input.outcome.kind !== 'completed') {
    return [{
      code: 'convergence',
      key: '',
      step: end,
      expected: 'the run to complete within its bounds',
      actual: `${input.outcome.kind}${input.outcome.detail ? `: ${input.outcome.detail}` : ''}`,
      evidence: { outcome: input.outcome },
    }];
  }
  const violations: Violation[] = tempLeftBehind(input, end);
  // Quarantined, paused (403) or cancelled: the task waits for a human, and may stop where it was.
  if (justlyQuarantined(input) || input.requests.some((r) => r.method === 'POST' && r.status === 403) || cancelledAt(input) !== undefined) return violations;
  const { service } = input.scenario;
  const words = wordsOf(input);
  for (const op of input.scenario.task.operations) {
    const record = input.final.visible[op.key];
    const last = record?.history.at(-1);
    const said = record === undefined ? '' : words.entry(record, record.history.length - 1);
    const fail = (actual: string): void => {
      violations.push({ code: 'convergence', key: op.key, step: end, expected: 'a terminal state at the end', actual, evidence: { history: record?.history ?? [] } });
    };
    if (record === undefined || last === undefined) {
      fail('nothing recorded for it');
      continue;
    }
    if (record.kind === 'file') {
      if (last !== 'applied' && last !== 'conflict') fail(`the delivery stopped at ${said}`);
      continue;
    }
    const unlearnable = !keyQueryOffered(input) || service.idempotencyMemory !== 'durable' || (intentChanged(input, op.key) && !everIn(input, op.key, 'dispatched', end, record)) || keyMayHaveExpired(input, op.key, end);
    if (last === 'blocked' && (budgetSpent(input, op.key) || inputChanged(input, op))) continue;
    if (last === 'blocked' || last === 'outcome_unknown') {
      if (!unlearnable) fail(`${said}, though the service offers a query and idempotent replay to learn the outcome`);
      continue;
    }
    if (!(TERMINAL_OPERATION_STATES as readonly string[]).includes(last)) fail(`it stopped at ${said}`);
  }
  return violations;
}

/** A finished task's temp files still in the folder at the end: one violation naming them all. */
function tempLeftBehind(input: JudgeInput, end: number): Violation[] {
  const leftovers = input.temp?.leftovers ?? [];
  if (leftovers.length === 0) return [];
  const finished = input.scenario.task.operations.every((op) => (FINISHED_STATES as readonly string[]).includes(input.final.visible[op.key]?.history.at(-1) ?? ''));
  if (!finished) return [];
  return [{
    code: 'convergence',
    key: '',
    step: end,
    expected: 'a finished task to leave none of its temp files behind (its cleanup runs to the end, through crashes and repeats)',
    actual: `${leftovers.length} left in ${input.temp?.dir ?? 'the temp folder'}: ${leftovers.join(', ')}`,
    evidence: { leftovers },
  }];
}

/** Whether a worker quarantined the task after it read a projection that does not fold the events. */
function justlyQuarantined(input: JudgeInput): boolean {
  const key = `${taskIdOf(input)}/quarantine`;
  const lies = projectionLiesRead(input);
  return (input.store?.calls ?? []).some((c) => c.applied && c.request.op === 'put' && c.request.key === key && lies.some((lie) => lie.by === c.by && lie.seq < c.seq));
}

/** Whether the task's retry budget is spent for this operation: by its recorded (or observed) sends or the task's, or at the service. */
function budgetSpent(input: JudgeInput, key: string): boolean {
  const budget = input.scenario.task.retryBudget;
  if (!budget) return false;
  const publishKeys = input.scenario.task.operations.filter((op) => op.kind === 'publish').map((op) => op.key);
  // A journal that reports only its current state shows its sends in what durasim observed (durable, or read by a next incarnation).
  const recorded = (k: string): number => {
    const record = input.final.visible[k];
    const reported = record?.kind === 'operation' ? record.history.filter((s) => s === 'dispatched').length : 0;
    return Math.max(reported, (input.observed[k] ?? []).filter((o) => o.state === 'dispatched').length);
  };
  const posted = (k?: string): number => input.requests.filter((r) => r.method === 'POST' && r.route.kind === 'publish' && (k === undefined || r.route.key === k)).length;
  const total = Math.max(publishKeys.reduce((n, k) => n + recorded(k), 0), posted());
  return Math.max(recorded(key), posted(key)) >= budget.perOperation || total >= budget.perTask;
}

/** Whether the source this operation was planned from changed during the run (it pauses for replanning). */
/** The input a publish was planned from cannot be verified: it changed during the run, or the service never held it at that version (a missing resource, or a plan stale from the start). */
function inputChanged(input: JudgeInput, op: JudgeInput['scenario']['task']['operations'][number]): boolean {
  if (op.input === undefined) return false;
  if (input.scenario.service.resources[op.input.resource] !== op.input.version) return true;
  return sourceChanges(input).some((change) => change.resource === op.input?.resource);
}

function intentChanged(input: JudgeInput, key: string): boolean {
  const later = input.scenario.taskAfterRestart?.operations.find((op) => op.key === key);
  const first = operationSpec(input, key);
  return later !== undefined && first !== undefined && later.body !== first.body;
}
