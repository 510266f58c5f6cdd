import { decidedAtMs, operationSpec, taskKeys, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * no-blind-retry: a non-retry-safe write is never sent under a key the task did not give, and is
 * sent again under its own key only when the service promises idempotent replay (durable memory) —
 * under a contract whose service keeps a key for a time-to-live, only while that has not run out
 * since the key's first send. A send whose sender last learned the time (a clock, a timer) before it
 * ran out, and was frozen after, is the race no client wins: not blind. Nor is a send after the
 * journal asked the service's effects themselves (a contract's query by a field of the request, or
 * by receipt: not its keys' memory, which a restart may have wiped) and they held none of its intent.
 */
export function checkNoBlindRetry(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const keys = taskKeys(input);
  const sent = new Map<string, number>();
  const first = new Map<string, number>();
  for (const request of input.requests) {
    if (request.route.kind !== 'publish' || request.route.key === undefined) continue;
    const key = request.route.key;
    if (!keys.has(key)) {
      violations.push({
        code: 'no-blind-retry',
        key,
        step: request.seq ?? 0,
        expected: 'writes only under the keys the task gave',
        actual: `request #${request.index} under the invented key ${JSON.stringify(key)}`,
        evidence: { request: { index: request.index, digest: request.digest }, taskKeys: [...keys] },
      });
      continue;
    }
    const count = (sent.get(key) ?? 0) + 1;
    sent.set(key, count);
    if (!first.has(key)) first.set(key, request.index);
    const memory = input.scenario.service.idempotencyMemory;
    if (count < 2 || operationSpec(input, key)?.retrySafe === true) continue;
    const previous = input.requests.findLast((r) => r.index < request.index && r.route.kind === 'publish' && r.route.key === key);
    // Asked the effects themselves since the last send, and none was of its intent: it learned that send never committed.
    const noneOfIt = (r: (typeof input.requests)[number]): boolean => r.readsEffects !== undefined && (r.readsEffects.found === 0 || (previous?.digest !== undefined && r.readsEffects.digests !== undefined && !r.readsEffects.digests.includes(previous.digest)));
    const askedTheTruth = input.requests.some((r) => r.route.kind === 'query' && r.route.key === key && noneOfIt(r) && (r.seq ?? 0) > (previous?.seq ?? 0) && (r.seq ?? 0) < (request.seq ?? 0));
    if (askedTheTruth) continue;
    const firstSend = input.requests.find((r) => r.index === first.get(key));
    // A key kept for a time-to-live (a contract's memory): a send again once it ran out since the first send is blind too —
    // unless its sender last learned the time before it ran out, and was frozen on its way (the race no client wins).
    const ttl = input.keyTtlMs;
    if (memory === 'durable' && ttl !== undefined && firstSend !== undefined && request.atMs - firstSend.atMs >= ttl && decidedAtMs(input, request) - firstSend.atMs >= ttl) {
      const effects = input.effects.filter((e) => e.key === key && e.requestIndex !== null).length;
      violations.push({
        code: 'no-blind-retry',
        key,
        step: request.seq ?? 0,
        expected: `no send again of a non-retry-safe write once the service may have forgotten its key (it keeps one for ${ttl} ms)`,
        actual: `request #${request.index} is send number ${count} of ${key}, ${request.atMs - firstSend.atMs} ms after request #${firstSend.index}: had that one committed, the key was forgotten and this one commits again${effects > 1 ? ` (here it did: ${effects} effects)` : ''}`,
        evidence: { request: { index: request.index, digest: request.digest }, firstRequest: firstSend.index, keyTtlMs: ttl, effects },
      });
      continue;
    }
    if (memory === 'durable') continue;
    const effects = input.effects.filter((e) => e.key === key && e.requestIndex !== null).length;
    const risk = memory === 'none'
      ? `the service keeps no idempotency keys, so it commits again unless request #${first.get(key)} never committed`
      : `the service's idempotency memory is volatile: had it restarted after request #${first.get(key)}, this re-send would have made a second effect`;
    violations.push({
      code: 'no-blind-retry',
      key,
      step: request.seq ?? 0,
      expected: 'no second send of a non-retry-safe write to a service that promises no idempotent replay',
      actual: `request #${request.index} is send number ${count} of ${key}: ${risk}${effects > 1 ? ` (here it did: ${effects} effects)` : ''}`,
      evidence: { request: { index: request.index, digest: request.digest }, firstRequest: first.get(key), idempotencyMemory: memory, effects },
    });
  }
  return violations;
}
