/**
 * Markers that are true, over every built-in mutant (issue 31): each violation of an invariant
 * about an act — a request sent, a store call, a file written, renamed or deleted — is marked at
 * the trace entry of that act, one that names its key (the re-send, the overwriting rename, the
 * put that carried on); each violation judged on what the disk or the records show is marked where
 * they showed it (a sync, a rename or append of the journal's files, a crash) or at the run's end.
 * Every mutant's hand-minimal scenario is simulated as check runs it, each violation replayed once
 * more for the same marker. The rule is shown failing on a marker moved off its act.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { judge } from '../model/judge.js';
import type { Violation } from '../model/violation.js';
import { parseScenarioText } from '../simulator/scenario/scenario.js';
import type { TraceEntry } from '../simulator/world/trace.js';
import { MUTANTS } from '../src/journals/mutants/index.js';
import { simulateAsProcesses } from '../src/mutantsMain.js';

/** Invariants about an act: marked at the act, which names the key (a store invariant: a call on the task's keys). */
const ACTS = new Set(['write-ahead', 'single-flight', 'one-effect-per-key', 'no-blind-retry', 'failure-class-respected', 'retry-safe-only', 'fenced-effects', 'no-effect-after-cancel', 'version-change-pauses', 'retry-budget', 'no-silent-overwrite', 'cleanup-owned-only', 'no-secret-persisted']);
const STORE_ACTS = new Set(['single-advancer', 'cas-loser-stops', 'takeover-exclusive', 'projection-consistent']);

const text = (e: TraceEntry): string => `${e.actor} ${e.op} ${e.detail}`;

/** What is wrong with a violation's marker in `trace`, or undefined when it is where the rule says. */
export function markerProblem(v: Violation, trace: readonly TraceEntry[], taskId: string): string | undefined {
  const entry = trace[v.step];
  if (!entry) return `${v.code} [${v.key}] is marked at #${v.step}, past the trace's end`;
  const at = `${v.code} [${v.key}] is marked at #${v.step} (${text(entry).slice(0, 80)})`;
  const namesKey = v.key !== '' && new RegExp(`(^|[^\\w-])${v.key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}([^\\w-]|$)`).test(text(entry));
  if (ACTS.has(v.code)) return namesKey ? undefined : `${at}, which does not name ${v.key}: not its act`;
  // A coordination invariant's act is a store call on the task's keys, or what the worker did on the key meanwhile (a loser's send).
  if (STORE_ACTS.has(v.code)) return (entry.actor === 'store' && entry.detail.includes(taskId)) || namesKey ? undefined : `${at}, neither a store call on ${taskId}'s keys nor an act on ${v.key}`;
  const end = entry.actor === 'supervisor' && (entry.op === 'stop' || entry.op === 'crash');
  const observed = entry.actor === 'disk' || (entry.actor.startsWith('worker') && /^(fh\.(sync|datasync|appendFile|writeFile|write)|fs\.(rename|link|unlink|appendFile|writeFile|fsync))/.test(entry.op)) || (entry.actor === 'service' && entry.op === 'receive');
  return end || observed ? undefined : `${at}: neither where the disk or the records showed it nor the end`;
}

describe('violation markers over every built-in mutant', () => {
  test.each(MUTANTS.map((m) => [m.journal.name] as const))('%s: every marker is at its act, or where the disk showed it, the same in a replay', async (name) => {
    const scenario = parseScenarioText(readFileSync(new URL(`../reports/mutants/minimal/${name}.json`, import.meta.url), 'utf8'));
    const result = await simulateAsProcesses(name, scenario);
    const violations = judge(result);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.flatMap((v) => markerProblem(v, result.trace, scenario.task.id ?? 'task-1') ?? [])).toEqual([]);
    const again = judge(await simulateAsProcesses(name, scenario));
    expect(again.map((v) => `${v.code} ${v.key} #${v.step}`)).toEqual(violations.map((v) => `${v.code} ${v.key} #${v.step}`));
  });

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
