import { createHash } from 'node:crypto';
import { checkpoints, short, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * recorded-intent-wins: a verdict is judged against the digest the journal recorded with the
 * intent. A succeeded whose receipt belongs to a later incarnation's arguments (a changed intent)
 * instead of the recorded digest is the bug this names.
 */
export function checkRecordedIntentWins(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  const reported = new Set<string>();
  for (const cp of checkpoints(input)) {
    for (const [key, record] of Object.entries(cp.records)) {
      if (record.kind !== 'operation' || !record.history.includes('succeeded') || reported.has(key)) continue;
      const later = input.scenario.taskAfterRestart?.operations.find((op) => op.key === key && op.body !== undefined);
      if (!later?.body) continue;
      const newDigest = sha256(later.body);
      if (newDigest === record.digest) continue;
      const proven = input.effects.find((e) => e.key === key && e.receipt === record.receipt);
      if (!proven || proven.digest !== newDigest) continue;
      reported.add(key);
      violations.push({
        code: 'recorded-intent-wins',
        key,
        step: cp.seq,
        expected: `${words.state(key, 'succeeded')} only for a receipt of the recorded intent ${short(record.digest)}`,
        actual: `${words.state(key, 'succeeded')} on receipt ${proven.receipt}, which is for the new arguments ${short(newDigest)}`,
        evidence: { at: cp.label, history: record.history, recordedDigest: record.digest, newArgumentsDigest: newDigest, effect: proven },
      });
    }
  }
  return violations;
}
