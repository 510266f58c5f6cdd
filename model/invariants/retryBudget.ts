import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * retry-budget: with a retry budget on the task (task.retryBudget), the POSTs that reach the
 * service for one operation never number more than perOperation, nor all of them together more
 * than perTask — counted at the service, across every restart and every worker, so a budget kept
 * in memory (reset by a restart) shows. A task with no budget is not judged by it.
 */
const posts = (n: number): string => `${n} POST${n === 1 ? '' : 's'}`;

export function checkRetryBudget(input: JudgeInput): Violation[] {
  const budget = input.scenario.task.retryBudget;
  if (!budget) return [];
  const violations: Violation[] = [];
  const perKey = new Map<string, number>();
  let total = 0;
  let taskReported = false;
  for (const request of input.requests) {
    if (request.method !== 'POST' || request.route.kind !== 'publish') continue;
    const key = request.route.key ?? '';
    const mine = (perKey.get(key) ?? 0) + 1;
    perKey.set(key, mine);
    total++;
    const step = request.seq ?? 0;
    if (mine === budget.perOperation + 1) {
      violations.push({ code: 'retry-budget', key, step, expected: `at most ${posts(budget.perOperation)} of ${key} at the service, across restarts and workers`, actual: `request #${request.index} from ${request.sender ?? 'a worker'} is POST number ${mine}`, evidence: { budget, sends: mine, request: request.index } });
    }
    if (total === budget.perTask + 1 && !taskReported) {
      taskReported = true;
      violations.push({ code: 'retry-budget', key: '', step, expected: `at most ${posts(budget.perTask)} for the whole task, across restarts and workers`, actual: `request #${request.index} (${key}) from ${request.sender ?? 'a worker'} is POST number ${total}`, evidence: { budget, sends: total, request: request.index } });
    }
  }
  return violations;
}
