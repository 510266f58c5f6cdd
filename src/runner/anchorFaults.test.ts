import { describe, expect, test } from 'vitest';
import { parseScenario, type Fault } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { coordinatedJournal } from '../journals/coordinated.js';
import { referenceJournal } from '../journals/reference.js';
import { journal as cancelCheckedAtStart } from '../journals/mutants/cancelCheckedAtStart.js';
import { judge } from '../../model/judge.js';
import { baseScenario, featuredScenario, STANDARD_OPERATIONS } from '../arbitraries.js';
import { anchoredInPlace, hasNumberedFaults } from './anchorFaults.js';

/** A run's trace, each line as it reads but a crash's, which says how the crash was placed. */
const story = (trace: readonly { actor: string; op: string; detail: string }[]): string[] => trace.map((e) => `${e.actor} ${e.op} ${e.op === 'crash' ? '' : e.detail}`);

describe('anchoredInPlace', () => {
  test('re-places every numbered fault where it landed: the same run, each fault anchored to what its step names', async () => {
    const scenario = parseScenario({
      ...featuredScenario(),
      faults: [
        { kind: 'crash', process: 0, incarnation: 0, step: 40, when: 'after', mode: 'keep-all' },
        { kind: 'io-error', process: 0, incarnation: 1, step: 30, error: 'EIO' },
        { kind: 'response', request: 1, fault: 'drop-after-commit' },
        { kind: 'cancel', atStep: 120 },
        { kind: 'duplicate-delivery', atStep: 25 },
      ],
    });
    const before = await simulate(referenceJournal, scenario);
    const anchored = anchoredInPlace(scenario, before.trace);
    expect(hasNumberedFaults(scenario)).toBe(true);
    expect(hasNumberedFaults(anchored)).toBe(false);
    expect(anchored.faults.map((f) => ('at' in f ? f.at : undefined))).toEqual(expect.arrayContaining([expect.objectContaining({ mentions: expect.any(String), occurrence: expect.any(Number) })]));
    expect(story((await simulate(referenceJournal, anchored)).trace)).toEqual(story(before.trace));
  });

  test('a pause and a store call of the coordinated journal; a fault whose step never came stays numbered', async () => {
    const faults: Fault[] = [{ kind: 'pause', process: 0, incarnation: 0, step: 6, pauseMs: 500 }, { kind: 'store-call', call: 7, fault: 'timeout-after-apply' }, { kind: 'takeover', atStep: 5000, holdMs: 100 }];
    const scenario = { ...baseScenario(STANDARD_OPERATIONS.slice(0, 2)), faults };
    const before = await simulate(coordinatedJournal, scenario);
    const anchored = anchoredInPlace(scenario, before.trace);
    expect(anchored.faults).toEqual([
      { kind: 'pause', process: 0, incarnation: 0, at: { mentions: 'store.renew', occurrence: 1 }, pauseMs: 500 },
      { kind: 'store-call', at: { mentions: 'store.put', occurrence: 2 }, fault: 'timeout-after-apply' },
      { kind: 'takeover', atStep: 5000, holdMs: 100 },
    ]);
    expect(story((await simulate(coordinatedJournal, anchored)).trace)).toEqual(story(before.trace));
  });
});

describe('shrinking keeps each fault in its window', () => {
  test('anchored where they landed, a fault that only shifted the others\' timing can go: the cancel stays before post-b is sent', async () => {
    // cancel-checked-at-start, killed early (a restart repeats the lease's steps), cancelled just before post-b's dispatched record.
    const kill: Fault = { kind: 'crash', process: 0, incarnation: 0, step: 3, when: 'after', mode: 'keep-all' };
    const scenario = { ...baseScenario(STANDARD_OPERATIONS.slice(0, 2)), faults: [kill, { kind: 'cancel', atStep: 30 } as Fault] };
    const fails = async (s: typeof scenario) => judge(await simulate(cancelCheckedAtStart, s)).map((v) => v.code);
    const found = await simulate(cancelCheckedAtStart, scenario);
    expect(judge(found).map((v) => v.code)).toEqual(['no-effect-after-cancel']);
    // Placed by global step, the kill cannot go: without its restart's steps the cancel lands after post-b was sent.
    expect(await fails({ ...scenario, faults: scenario.faults.slice(1) })).toEqual([]);
    // Anchored where it landed, it can: the cancel still lands before post-b's dispatched record.
    const anchored = anchoredInPlace(scenario, found.trace);
    expect(anchored.faults[1]).toEqual({ kind: 'cancel', at: { mentions: 'post-b', occurrence: 1 } });
    expect(await fails({ ...anchored, faults: anchored.faults.slice(1) })).toEqual(['no-effect-after-cancel']);
  });
});
