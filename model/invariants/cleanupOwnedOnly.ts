import type { JudgeInput } from '../evidence.js';
import type { Violation } from '../violation.js';

/**
 * cleanup-owned-only: a task that keeps temp files in a folder it shares (task.temp) never deletes,
 * moves, replaces or rewrites another task's temp file there — the files that were in the folder
 * before the run. A cleanup must delete what this task registered, not what matches a name
 * pattern: `startsWith("task-1")` also matches task-10's files. One violation per file, at the
 * first step that touched it.
 */
export function checkCleanupOwnedOnly(input: JudgeInput): Violation[] {
  const violations: Violation[] = [];
  const reported = new Set<string>();
  for (const touch of input.temp?.touches ?? []) {
    if (reported.has(touch.name)) continue;
    reported.add(touch.name);
    violations.push({
      code: 'cleanup-owned-only',
      key: touch.name,
      step: touch.seq,
      expected: `another task's temp file left alone (it was in ${input.temp?.dir ?? 'the temp folder'} before the run; a cleanup deletes only what its own task registered)`,
      actual: `${touch.by} ${touch.op}`,
      evidence: { touch, foreign: input.temp?.foreign ?? [] },
    });
  }
  return violations;
}
