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
  input.crashes.forEach((crash, i) => {
    for (const [key, record] of Object.entries(crash.visible)) {
      const last = record.history.at(-1);
      if (record.kind !== 'operation' || last === undefined || !(IN_DOUBT_STATES as readonly string[]).includes(last) || reported.has(key)) continue;
      const spec = operationSpec(input, key);
      if (spec?.kind !== 'publish' || spec.retrySafe === true) continue;
      const after = input.requests.filter((r) => (r.seq ?? 0) > crash.seq && r.route.key === key);
      const resend = after.find((r) => r.route.kind === 'publish');
      if (!resend) continue;
      const queried = after.some((r) => r.route.kind === 'query' && (r.seq ?? 0) < (resend.seq ?? 0));
      const replayOnly = !input.scenario.service.query && input.scenario.service.idempotencyMemory === 'durable';
      if (queried || replayOnly) continue;
      reported.add(key);
      violations.push({
        code: 'retry-safe-only',
        key,
        step: resend.seq ?? crash.seq,
        expected: `after crash ${i + 1} left ${key} ${last}, a query for the key before any re-send, or blocked`,
        actual: `request #${resend.index} re-sent it without asking the service`,
        evidence: { historyAtCrash: record.history, resend: { index: resend.index, digest: resend.digest } },
      });
    }
  });
  return violations;
}
