import { checkpoints, type JudgeInput } from '../evidence.js';
import { firstSkip, IN_DOUBT_STATES } from '../lifecycle.js';
import type { Violation } from '../violation.js';

/**
 * no-state-skip: every recorded history is a path in the model, and recovery from an in-doubt
 * state (dispatched, outcome_unknown, reconciling) passes through reconciling.
 */
export function checkNoStateSkip(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const reported = new Set<string>();
  const images = [...input.crashes.map((c, i) => ({ label: `records after crash ${i + 1}`, seq: c.seq, records: c.visible })), ...checkpoints(input)];
  for (const image of images) {
    for (const [key, record] of Object.entries(image.records)) {
      const skip = firstSkip(record.kind, record.history);
      if (!skip || reported.has(key)) continue;
      reported.add(key);
      violations.push({
        code: 'no-state-skip',
        key,
        step: image.seq,
        expected: skip.from === null ? `the history to start at ${record.kind === 'operation' ? 'authorized' : 'read'}` : `a transition the model allows from ${skip.from}`,
        actual: skip.from === null ? `it starts at ${skip.to}` : `${skip.from} → ${skip.to}`,
        evidence: { history: record.history, at: image.label, index: skip.index },
      });
    }
  }
  input.crashes.forEach((crash, i) => {
    if (crash.survivors.length > 0) return; // a surviving worker may go on without recovering
    for (const [key, before] of Object.entries(crash.visible)) {
      const last = before.history.at(-1);
      if (before.kind !== 'operation' || last === undefined || !(IN_DOUBT_STATES as readonly string[]).includes(last) || reported.has(key)) continue;
      // What followed this crash, up to the next one (which may have taken records away again).
      const after = (input.crashes[i + 1]?.visible ?? input.final.visible)[key]?.history ?? [];
      const continues = before.history.every((state, j) => after[j] === state);
      const next = after[before.history.length];
      if (!continues || next === undefined || next === 'reconciling') continue;
      reported.add(key);
      violations.push({
        code: 'no-state-skip',
        key,
        step: crash.seq,
        expected: `recovery from ${last} after crash ${i + 1} to pass through reconciling`,
        actual: `${last} → ${next}`,
        evidence: { beforeCrash: before.history, atEnd: after },
      });
    }
  });
  return violations;
}
