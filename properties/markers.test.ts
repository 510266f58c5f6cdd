/**
 * The marker rule (fixtures/markerRule.ts), which properties/mutants.test.ts holds every built-in
 * mutant's hand-minimal run to, fires on markers moved off their act.
 */
import { describe, expect, test } from 'vitest';
import type { Violation } from '../model/violation.js';
import type { TraceEntry } from '../simulator/world/trace.js';
import { markerProblem } from './fixtures/markerRule.js';

describe('the violation marker rule', () => {
  test('the rule fires on a marker moved off its act: a re-send marked at a sync, a state skip marked at a clock read', () => {
    const trace: TraceEntry[] = [
      { seq: 0, timeMs: 0, actor: 'worker-0', op: 'fh.sync', detail: 'journal.jsonl' },
      { seq: 1, timeMs: 0, actor: 'service', op: 'receive', detail: '#1 POST /operations/post-a → 200' },
      { seq: 2, timeMs: 0, actor: 'worker-0', op: 'clock.now', detail: '' },
    ];
    const v = (code: string, step: number) => ({ code, key: 'post-a', step, expected: '', actual: '', evidence: {} }) as unknown as Violation;
    expect(markerProblem(v('single-flight', 1), trace, 'task-1')).toBeUndefined();
    expect(markerProblem(v('single-flight', 0), trace, 'task-1')).toBe('single-flight [post-a] is marked at #0 (worker-0 fh.sync journal.jsonl), which does not name post-a: not its act');
    expect(markerProblem(v('no-state-skip', 0), trace, 'task-1')).toBeUndefined();
    expect(markerProblem(v('no-state-skip', 2), trace, 'task-1')).toBe('no-state-skip [post-a] is marked at #2 (worker-0 clock.now ): neither where the disk or the records showed it nor the end');
    expect(markerProblem(v('single-advancer', 1), trace, 'task-1')).toBeUndefined();
    expect(markerProblem(v('single-advancer', 0), trace, 'task-1')).toBe("single-advancer [post-a] is marked at #0 (worker-0 fh.sync journal.jsonl), neither a store call on task-1's keys nor an act on post-a");
  });
});
