import { checkpoints, endStep, type JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';
import { wordsOf } from '../stateWords.js';

const WRITES = new Set(['fs.writeFile', 'fh.writeFile', 'fs.appendFile', 'fh.appendFile']);

/**
 * no-silent-overwrite: each user edit survives in the final file, or a conflict preserved it. A
 * file that is missing at the end of a run the bounds stopped, with nothing written over it, was
 * moved aside by a delivery that never finished: that is convergence's finding, not this one's.
 */
export function checkNoSilentOverwrite(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const words = wordsOf(input);
  input.userEdits.forEach((edit, i) => {
    if (input.userEdits.slice(i + 1).some((later) => later.path === edit.path)) return; // the user replaced it themselves
    const final = input.final.files[edit.path];
    if (final?.includes(edit.text)) return;
    const preservedIn = checkpoints(input).find((cp) =>
      Object.values(cp.records).some((r) => r.kind === 'file' && r.path === edit.path && r.history.includes('conflict') && r.preserved.includes(edit.text)),
    );
    if (preservedIn) return;
    const overwrite = input.trace.find(
      (e) => e.seq > edit.seq && e.actor.startsWith('worker-') && (((e.op === 'fs.rename' || e.op === 'fs.link') && e.detail.endsWith(`→ ${edit.path}`)) || (WRITES.has(e.op) && e.detail.startsWith(`${edit.path} `))),
    );
    // Moved aside mid-delivery, never overwritten, and the bounds stopped the run before it could come back: convergence's finding.
    if (final === undefined && overwrite === undefined && input.outcome.kind !== 'completed') return;
    const conflict = words.state(input.scenario.task.operations.find((op) => op.kind === 'edit' && op.path === edit.path)?.key ?? edit.path, 'conflict');
    violations.push({
      code: 'no-silent-overwrite',
      key: edit.path,
      step: overwrite?.seq ?? endStep(input),
      expected: `the user's text ${JSON.stringify(edit.text)} in the final file, or a recorded ${conflict} preserving it`,
      actual: final === undefined ? `the file is gone and no ${conflict} preserved the text` : `the final file is ${JSON.stringify(final)} and no ${conflict} preserved the text`,
      evidence: { userEdit: edit, finalFile: final, overwrite },
    });
  });
  return violations;
}
