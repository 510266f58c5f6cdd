import { checkpoints, type JudgeInput, type ReceiptLoss } from '../evidence.js';
import { HistoryObserver } from '../observedHistory.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

/**
 * evidence-retained: once the durable records hold a write's receipt, they keep it — through every
 * crash, every cleanup, every compaction, to the end. A record of succeeded is the only proof a
 * later run (or a human) has that the effect happened; a cleanup that deletes the journal, or a
 * compaction that drops receipts, turns a completed effect into one nobody can account for. Judged
 * for every publish: on the states durasim observed on the durable image (succeeded, then the
 * record gone), and on the receipt every snapshot after that shows (observedHistory.ts; for older
 * evidence, the images after each crash and at the end).
 */
export function checkEvidenceRetained(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  const publishes = new Set([...input.scenario.task.operations, ...(input.scenario.taskAfterRestart?.operations ?? [])].filter((op) => op.kind === 'publish').map((op) => op.key));
  const losses = input.receiptLosses ?? lossesAtCheckpoints(input);
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
        actual: `recorded ${words.observed(succeeded)} at #${succeeded.seq}; the record was gone from the durable image at #${gone.seq}`,
        evidence: { observed },
      });
      continue;
    }
    const loss = losses.find((l) => l.key === key);
    if (!loss) continue;
    const where = loss.image === 'durable' ? 'the durable records' : 'the records processes see';
    violations.push({
      code: 'evidence-retained',
      key,
      step: loss.seq,
      expected: `the receipt ${loss.receipt} kept (the durable records held it at #${loss.heldSeq})`,
      actual: loss.now === undefined ? `${where} hold no record of it at #${loss.seq}` : loss.now === null ? `${where} hold its record without a receipt at #${loss.seq}` : `${where} show the receipt ${loss.now} at #${loss.seq}`,
      evidence: { loss },
    });
  }
  return violations;
}

/** For evidence made before receipts were watched: the checkpoints (after each crash, at the end) fed to the same watch. */
function lossesAtCheckpoints(input: JudgeInput): ReceiptLoss[] {
  const observer = new HistoryObserver();
  for (const image of checkpoints(input)) observer.observe(image.records, image.seq, image.label.startsWith('visible') ? 'visible' : 'durable');
  return observer.receiptLosses;
}
