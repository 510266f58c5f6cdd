import { operationSpec, type JudgeInput } from '../evidence.js';
import { IN_DOUBT_STATES } from '../lifecycle.js';
import type { Violation } from '../violation.js';

/**
 * retry-safe-only: a non-retry-safe write found in doubt after a crash is not re-executed blindly:
 * the recovery queries the service for the key before any re-send (or, where no query exists,
 * re-sends only to a service that promises replay), or it ends blocked.
 */
export function checkRetrySafeOnly(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const reported = new Set<string>();
  const replayOnly = !input.scenario.service.query && input.scenario.service.idempotencyMemory === 'durable';
  for (const request of input.requests) {
    const key = request.route.key;
    if (request.route.kind !== 'publish' || key === undefined || reported.has(key) || replayOnly) continue;
    const spec = operationSpec(input, key);
    if (spec?.kind !== 'publish' || spec.retrySafe === true) continue;
    const seq = request.seq ?? 0;
    const crashIndex = input.crashes.findLastIndex((c) => c.seq < seq);
    const crash = input.crashes[crashIndex];
    if (crash === undefined) continue;
    const record = crash.visible[key];
    const last = record?.history.at(-1);
    if (record?.kind !== 'operation' || last === undefined || !(IN_DOUBT_STATES as readonly string[]).includes(last)) continue;
    const since = input.requests.filter((r) => (r.seq ?? 0) > crash.seq && (r.seq ?? 0) < seq && r.route.key === key);
    if (since.some((r) => r.route.kind === 'query' || r.route.kind === 'publish')) continue; // reconciled first, or already judged
    reported.add(key);
    violations.push({
      code: 'retry-safe-only',
      key,
      step: seq,
      expected: `after crash ${crashIndex + 1} left ${key} ${last}, a query for the key before any re-send, or blocked`,
      actual: `request #${request.index} re-sent it without asking the service`,
      evidence: { historyAtCrash: record.history, resend: { index: request.index, digest: request.digest } },
    });
  }
  return violations;
}
