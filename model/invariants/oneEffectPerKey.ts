import { endStep, runEffects, short, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * one-effect-per-key: the run commits at most one effect per key, and none whose digest differs
 * from the authorized intent. Effects that existed before the run are history, not the journal's:
 * a volatile service that forgets one of them is not the journal's double send.
 */
export function checkOneEffectPerKey(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const byKey = new Map<string, typeof input.effects>();
  for (const effect of runEffects(input)) byKey.set(effect.key, [...(byKey.get(effect.key) ?? []), effect]);
  for (const [key, effects] of byKey) {
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
