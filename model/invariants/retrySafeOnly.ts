import { keyQueryOffered, operationSpec, replayPromised, type JudgeInput } from '../evidence.js';
import { IN_DOUBT_STATES } from '../lifecycle.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/**
 * retry-safe-only: a non-retry-safe write found in doubt after a crash is not re-executed blindly:
 * the recovery queries the service for the key before any re-send (or, where no query exists —
 * none at all, or under a contract one by the receipt alone, which a send in doubt never got —
 * re-sends only to a service that promises replay), or it ends blocked. Under a contract whose
 * service promises to keep its keys (durable, or a time-to-live), a re-send under the same key is
 * how that service is meant to be asked — it replays what it committed — so it is no blind
 * re-send (a send once the key's time-to-live ran out is no-blind-retry's).
 *
 * Only a recovering incarnation can re-send: one that started after the crash. A worker that
 * survived the crash (a process kill spares the others) continues its own send, which is no
 * re-send at all.
 */
export function checkRetrySafeOnly(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  const reported = new Set<string>();
  // A service that keeps the key, and either offers no query a journal in doubt can ask (none at all, or a contract's by the
  // receipt alone: a send again is the only way to learn) or promises by its contract to keep its keys (a send again is how it is asked).
  const replayOnly = (!keyQueryOffered(input) && input.scenario.service.idempotencyMemory === 'durable') || replayPromised(input);
  const started = new Map<string, number>();
  for (const line of input.trace) if (line.actor === 'supervisor' && line.op === 'start') started.set(line.detail, line.seq);
  for (const request of input.requests) {
    const key = request.route.key;
    if (request.route.kind !== 'publish' || key === undefined || reported.has(key) || replayOnly) continue;
    const spec = operationSpec(input, key);
    if (spec?.kind !== 'publish' || spec.retrySafe === true) continue;
    const seq = request.seq ?? 0;
    // The crash the sender recovers from: the last one before it started (or before the request, when the sender is unknown).
    const since = request.sender === undefined ? seq : (started.get(request.sender) ?? seq);
    const crashIndex = input.crashes.findLastIndex((c) => c.seq < since);
    const crash = input.crashes[crashIndex];
    if (crash === undefined) continue;
    const record = crash.visible[key];
    const last = record?.history.at(-1);
    if (record?.kind !== 'operation' || last === undefined || !(IN_DOUBT_STATES as readonly string[]).includes(last)) continue;
    const between = input.requests.filter((r) => (r.seq ?? 0) > crash.seq && (r.seq ?? 0) < seq && r.route.key === key);
    if (between.some((r) => r.route.kind === 'query' || r.route.kind === 'publish')) continue; // reconciled first, or already judged
    reported.add(key);
    const firstSend = !input.requests.some((r) => r.route.kind === 'publish' && r.route.key === key && (r.seq ?? 0) < seq);
    const effects = input.effects.filter((e) => e.key === key && e.requestIndex !== null).length;
    const risk = effects > 1
      ? `; the service committed it ${effects} times`
      : input.scenario.service.idempotencyMemory === 'durable'
        ? '; this service kept the key, but one that forgets keys (or keeps none) would have committed it twice had the first send landed'
        : '; this service promises no replay, so had the first send landed it would have committed twice';
    violations.push({
      code: 'retry-safe-only',
      key,
      step: seq,
      expected: `after crash ${crashIndex + 1} left ${key} ${words.entry(record, record.history.length - 1)}, a query for the key before any re-send, or ${words.state(key, 'blocked')}`,
      actual: `request #${request.index}${request.sender ? ` from ${request.sender}, which started after that crash,` : ''} ${firstSend ? 'sent it without asking the service (no earlier send had left, which the journal could not know)' : 're-sent it without asking the service'}${risk}`,
      evidence: { historyAtCrash: record.history, resend: { index: request.index, digest: request.digest, sender: request.sender } },
    });
  }
  return violations;
}
