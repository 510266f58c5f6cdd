import { describe, expect, test } from 'vitest';
import type { Fault } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import type { TraceEntry } from '../../simulator/world/trace.js';
import { baseScenario } from '../arbitraries.js';
import { referenceJournal } from '../journals/reference.js';
import { anchorFaults } from './anchorFaults.js';

const step = (seq: number, s: number, op: string, detail: string, incarnation = 0): TraceEntry => ({ seq, timeMs: 0, actor: 'worker-0', incarnation, step: s, op, detail });

describe('re-anchoring numbered faults to the call they hit', () => {
  test("a numbered crash becomes its step's rank among the incarnation's calls that name the first key or path it names", () => {
    const base = baseScenario([{ kind: 'publish', key: 'post-a', body: 'a' }, { kind: 'publish', key: 'post-b', body: 'b' }]);
    const trace = [
      step(0, 0, 'fs.readFile', 'journal.jsonl'),
      step(1, 1, 'fh.appendFile', 'journal.jsonl "post-a authorized"'),
      step(2, 2, 'fetch', 'POST /operations/post-a'),
      step(3, 3, 'fh.appendFile', 'journal.jsonl "post-b authorized"'),
      step(4, 4, 'fh.appendFile', 'journal.jsonl "post-b dispatched"'),
      step(5, 0, 'fh.appendFile', 'journal.jsonl "post-b dispatched"', 1),
    ];
    const faults: Fault[] = [
      { kind: 'crash', process: 0, incarnation: 0, step: 4, when: 'after', mode: 'keep-all' },
      { kind: 'io-error', process: 0, incarnation: 0, step: 0, error: 'EIO' }, // names no key or path: stays numbered
      { kind: 'pause', process: 0, incarnation: 0, step: 2, pauseMs: 1000 },
    ];
    expect(anchorFaults({ ...base, faults }, trace).faults).toEqual([
      { kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-b', occurrence: 1 }, when: 'after', mode: 'keep-all' },
      { kind: 'io-error', process: 0, incarnation: 0, step: 0, error: 'EIO' },
      { kind: 'pause', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 1 }, pauseMs: 1000 },
    ]);
    const none = { ...base, faults: [faults[1] as Fault] };
    expect(anchorFaults(none, trace)).toBe(none);
  });

  test('the anchored scenario replays the run the numbered one made, step for step', async () => {
    // A step that names post-b: the numbered crash lands after it.
    const free = await simulate(referenceJournal, baseScenario());
    const target = free.trace.find((e) => e.actor === 'worker-0' && e.step !== undefined && !e.op.endsWith(':result') && e.detail.includes('post-b'));
    const numbered = { ...baseScenario(), faults: [{ kind: 'crash' as const, process: 0, incarnation: 0, step: target?.step ?? -1, when: 'after' as const, mode: 'lose-unsynced' as const }] };
    const first = await simulate(referenceJournal, numbered);
    const anchored = anchorFaults(numbered, first.trace);
    expect(anchored.faults[0]).toMatchObject({ at: { mentions: 'post-b', occurrence: 0 } });
    const second = await simulate(referenceJournal, anchored);
    const steps = (trace: readonly TraceEntry[]) => trace.filter((e) => e.actor !== 'supervisor').map((e) => `${e.actor} ${e.op} ${e.detail}`);
    expect(steps(second.trace)).toEqual(steps(first.trace));
    expect(second.crashes.map((c) => c.seq)).toEqual(first.crashes.map((c) => c.seq));
  });
});
