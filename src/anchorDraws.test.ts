/**
 * The generator places the faults that are no worker's own step mostly by anchor (issue 52 item 2),
 * and draws pairs whose second fault touches what the first touched with priority (item 3).
 */
import { describe, expect, test } from 'vitest';
import { parseScenario, scenarioToJson, type Fault } from '../simulator/scenario/scenario.js';
import { arbitraryOf, scenarioAt } from './runner/scenarioSource.js';
import { placeFaults } from './anchorDraws.js';
import { FAULT_KINDS } from './arbitraries.js';

const TIMED = new Set(['duplicate-delivery', 'concurrent-call', 'service-restart', 'store-restart', 'takeover', 'store-edit', 'cancel', 'input-change']);
const SECOND_RUNS = new Set(['duplicate-delivery', 'concurrent-call']);
// Every family, concurrent calls among them.
const runs = Array.from({ length: 400 }, (_, i) => scenarioAt(arbitraryOf({ faults: FAULT_KINDS }), 1, i).value_);
const faults = runs.flatMap((s) => s.faults);

describe('where the generated faults land', () => {
  test('three timed faults in four are anchored to a step that names a key or a step kind, before or after it; the rest keep a global step', () => {
    const timed = faults.filter((f) => TIMED.has(f.kind) && !SECOND_RUNS.has(f.kind));
    const anchored = timed.filter((f) => 'at' in f && f.at !== undefined);
    expect(anchored.length / timed.length).toBeGreaterThan(0.6);
    expect(anchored.length / timed.length).toBeLessThan(0.9);
    for (const kind of TIMED) expect(faults.some((f) => f.kind === kind && 'at' in f && f.at !== undefined), kind).toBe(true);
    expect(anchored.some((f) => 'at' in f && f.at !== undefined && 'when' in f.at && f.at.when === 'after')).toBe(true);
    expect(anchored.some((f) => 'at' in f && f.at?.mentions === 'POST')).toBe(true);
  });

  test('pauses may freeze their worker just after the step they name; store faults land on the n-th call of a kind', () => {
    expect(faults.some((f) => f.kind === 'pause' && f.at?.when === 'after')).toBe(true);
    expect(faults.some((f) => f.kind === 'pause' && f.at?.mentions === 'store.renew')).toBe(true);
    expect(faults.some((f) => f.kind === 'store-call' && f.at?.mentions.startsWith('store.'))).toBe(true);
  });

  test("a second run of the task (a concurrent call, a duplicate worker) is anchored only as the second of a pair, to what the run's first anchored fault named; else it keeps its global step", () => {
    const firstAt = (s: (typeof runs)[number]) => s.faults.find((f): f is Fault & { at: { mentions: string; occurrence: number } } => (f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'response') && f.at !== undefined)?.at;
    const seconds = runs.flatMap((s) => s.faults.filter((f) => SECOND_RUNS.has(f.kind)).map((f) => [f, firstAt(s)] as const));
    const anchored = seconds.filter(([f]) => 'at' in f && f.at !== undefined);
    expect(anchored.length).toBeGreaterThan(0);
    for (const [f, first] of anchored) expect('at' in f && f.at?.mentions, JSON.stringify(f)).toBe(first?.mentions);
    const numbered = seconds.filter(([f]) => 'atStep' in f && f.atStep !== undefined);
    expect(numbered.length).toBeGreaterThan(anchored.length);
  });

  test('two faults in one window: runs whose timed fault names what their first anchored fault named, a few mentions later', () => {
    const pairs = runs.filter((s) => {
      const first = s.faults.find((f) => (f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'response') && f.at !== undefined);
      const at = first && 'at' in first ? first.at : undefined;
      return at !== undefined && s.faults.some((f) => TIMED.has(f.kind) && 'at' in f && f.at?.mentions === at.mentions && f.at.occurrence > at.occurrence);
    });
    expect(pairs.length).toBeGreaterThan(20);
  });

  test('every scenario drawn is a valid format-3 scenario', () => {
    for (const s of runs) expect(parseScenario(scenarioToJson(s))).toEqual(s);
  });

  test('placeFaults keeps a second fault of a kind numbered, and a slot drawn unanchored leaves its fault as it was', () => {
    const twoCancels: Fault[] = [{ kind: 'cancel', atStep: 5 }, { kind: 'cancel', atStep: 9 }];
    const slot = { subject: { operation: 0 }, occurrence: 2, when: 'before' as const, follow: false, delta: 1 };
    const timed = Array.from({ length: 8 }, (_, i) => (i === 6 ? slot : undefined));
    expect(placeFaults(twoCancels, { timed, pauses: [undefined, undefined], storeCalls: [undefined, undefined, undefined] }, () => 'post-a')).toEqual([{ kind: 'cancel', at: { mentions: 'post-a', occurrence: 2 } }, { kind: 'cancel', atStep: 9 }]);
    expect(placeFaults(twoCancels, { timed: timed.map(() => undefined), pauses: [undefined, undefined], storeCalls: [undefined, undefined, undefined] }, () => 'post-a')).toEqual(twoCancels);
  });
});
