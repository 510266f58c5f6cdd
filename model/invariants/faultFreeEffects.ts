import { endStep, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/**
 * fault-free-effects: in a run with no fault at all, every publish the journal ends in a final state
 * (succeeded, failed, blocked, conflict, cancelled) has its effect at the service — or the service
 * itself said why not (a conflict with an effect already there, an answer of its contract that
 * refused it). Nothing went wrong, so a final state without an effect is the journal's own doing: a
 * request sent where no route takes it, without its key, or never sent, recorded as done or failed.
 */
const FINAL: readonly string[] = ['succeeded', 'failed', 'blocked', 'conflict', 'cancelled'];

export function checkFaultFreeEffects(input: JudgeInput): Violation[] {
  if (input.scenario.faults.length > 0 || input.outcome.kind !== 'completed') return [];
  const violations: Violation[] = [];
  const words = wordsOf(input);
  const end = endStep(input);
  for (const op of input.scenario.task.operations) {
    if (op.kind !== 'publish') continue;
    const record = input.final.visible[op.key];
    const last = record?.history.at(-1);
    if (record === undefined || last === undefined || !FINAL.includes(last)) continue;
    if (input.effects.some((e) => e.key === op.key)) continue;
    const asked = input.requests.filter((r) => r.route.key === op.key && r.method !== 'GET');
    violations.push({
      code: 'fault-free-effects',
      key: op.key,
      step: end,
      expected: `an effect of ${op.key} at the service: the run had no fault, and the journal recorded it ${words.entry(record, record.history.length - 1)}`,
      actual: asked.length === 0 ? `no request for ${op.key} reached the service (${input.requests.filter((r) => r.route.kind === 'unknown' || r.route.kind === 'missing-key').length} request(s) went to no route or without a key)` : `the service holds no effect of it after ${asked.length} request(s), answered ${asked.map((r) => r.wireStatus ?? r.status).join(', ')}`,
      evidence: { history: record.history, requests: asked.map((r) => r.index) },
    });
  }
  return violations;
}
