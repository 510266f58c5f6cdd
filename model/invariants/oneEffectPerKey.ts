import { decidedAtMs, endStep, runEffects, short, type EffectEvidence, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * one-effect-per-key: the run commits at most one effect per key, and none whose digest differs
 * from the authorized intent. Effects that existed before the run are history, not the journal's:
 * a volatile service that forgets one of them is not the journal's double send. Nor is a second
 * effect under a key the service forgot by its time-to-live (a contract's) when the request's
 * sender last learned the time before the key ran out and was frozen on its way: the race no
 * client wins (a send again it decided later is the journal's, and no-blind-retry's too).
 */

/** `effect` committed because the key of `previous` ran out while its sender, who decided in time, was frozen. */
function raceNoClientWins(input: JudgeInput, effect: EffectEvidence, previous: EffectEvidence): boolean {
  const ttl = input.keyTtlMs;
  const request = input.requests.find((r) => r.index === effect.requestIndex);
  if (ttl === undefined || request === undefined || effect.atMs - previous.atMs < ttl) return false;
  return decidedAtMs(input, request) - previous.atMs < ttl;
}
export function checkOneEffectPerKey(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const byKey = new Map<string, typeof input.effects>();
  for (const effect of runEffects(input)) byKey.set(effect.key, [...(byKey.get(effect.key) ?? []), effect]);
  for (const [key, all] of byKey) {
    const effects = all.filter((effect, i) => i === 0 || !raceNoClientWins(input, effect, all[i - 1] as EffectEvidence));
    if (effects.length < 2) continue;
    violations.push({
      code: 'one-effect-per-key',
      key,
      step: effects[1]?.seq ?? endStep(input),
      expected: 'at most one effect for the key',
      actual: `${effects.length} effects (receipts ${effects.map((e) => e.receipt).join(', ')})`,
      evidence: { effects },
    });
  }
  for (const effect of runEffects(input)) {
    const record = input.final.visible[effect.key] ?? input.final.durable[effect.key];
    if (record?.kind !== 'operation' || record.digest === undefined || record.digest === effect.digest) continue;
    violations.push({
      code: 'one-effect-per-key',
      key: effect.key,
      step: effect.seq ?? endStep(input),
      expected: `an effect with the authorized digest ${short(record.digest)}`,
      actual: `an effect with digest ${short(effect.digest)}`,
      evidence: { effect, record },
    });
  }
  return violations;
}
