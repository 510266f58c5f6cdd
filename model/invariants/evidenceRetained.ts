import { checkpoints, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * evidence-retained: once the durable records hold a write's receipt, they keep it — through every
 * crash, every cleanup, to the end. A record of succeeded is the only proof a later run (or a human)
 * has that the effect happened; a cleanup that deletes the journal, or a compaction that drops
 * receipts, turns a completed effect into one nobody can account for. Judged for every publish:
 * on the states durasim observed on the durable image (succeeded, then the record gone), and on
 * the receipt each image shows (a receipt a durable image held, missing or changed in a later one).
 */
export function checkEvidenceRetained(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const publishes = new Set([...input.scenario.task.operations, ...(input.scenario.taskAfterRestart?.operations ?? [])].filter((op) => op.kind === 'publish').map((op) => op.key));
  const images = checkpoints(input);
  for (const key of publishes) {
    const observed = input.observed[key] ?? [];
    const succeeded = observed.find((o) => o.state === 'succeeded' && o.image === 'durable');
    const gone = succeeded && observed.find((o) => o.seq > succeeded.seq && o.state === 'absent');
    if (succeeded && gone) {
      violations.push({
        code: 'evidence-retained',
        key,
        step: gone.seq,
        expected: 'the record of a completed write kept, with its receipt',
        actual: `recorded succeeded at #${succeeded.seq}; the record was gone from the durable image at #${gone.seq}`,
        evidence: { observed },
      });
      continue;
    }
    let held: { receipt: string; label: string } | undefined;
    for (const image of images) {
      const record = image.records[key];
      const receipt = record?.kind === 'operation' ? record.receipt : undefined;
      if (held === undefined) {
        if (receipt !== undefined && record?.history.includes('succeeded') && image.label.startsWith('durable')) held = { receipt, label: image.label };
        continue;
      }
      if (receipt === held.receipt) continue;
      violations.push({
        code: 'evidence-retained',
        key,
        step: image.seq,
        expected: `the receipt ${held.receipt} kept (the ${held.label} held it)`,
        actual: record === undefined ? `the ${image.label} holds no record of it` : receipt !== undefined ? `the ${image.label} shows the receipt ${receipt}` : `the ${image.label} holds its record without a receipt`,
        evidence: { held, record: record ?? null, at: image.label },
      });
      break;
    }
  }
  return violations;
}
