import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { baseScenario, scenarioArbitrary } from '../arbitraries.js';
import { RESPONSE_FAULTS } from '../../simulator/scenario/scenario.js';
import type { RunWindows } from './faultWindows.js';
import { scenarioAt } from './scenarioSource.js';
import { TowardArbitrary, WindowGuide, withToward, type Toward } from './windowGuide.js';

const POST = { pid: 0, incarnation: 0, step: 20, globalStep: 20, requests: [0], storeCalls: [], storeKeys: [] };
const APPEND = { pid: 0, incarnation: 0, step: 15, globalStep: 15, requests: [], storeCalls: [], storeKeys: [] };
const run = (hit: string[]): RunWindows => ({ hit, usesStore: false, offered: [{ kind: 'POST', owner: 'first', point: POST }, { kind: 'append', owner: 'first', point: APPEND }] });

const guideOf = (aim = true) => new WindowGuide({ seed: 7, arbitrary: { faults: ['crash', 'response'] }, parentScenario: () => baseScenario(), epochRuns: 4, aim });

describe('the window guide', () => {
  test('the first epoch is drawn as always; later, odd runs aim at windows no earlier run hit, each window once', () => {
    const guide = guideOf();
    expect([0, 1, 2, 3].map((i) => guide.aims(i))).toEqual([false, false, false, false]);
    expect([4, 5, 6, 7].map((i) => guide.aims(i))).toEqual([false, true, false, true]);
    // Run 5 waits for every run below 4; run 4 (drawn as always) waits for nothing.
    expect(guide.waitsFor(4)).toBeUndefined();
    expect(guide.waitsFor(5)).toBe(4);
    for (const i of [0, 1, 2, 3]) guide.record(i, run(['crash keep-all @ POST · first']));
    guide.settle(4);
    expect(guide.waitsFor(5)).toBeUndefined();
    const aimed: Toward[] = [];
    for (let i = 5; i < 200; i += 2) {
      const toward = guide.towardFor(i, i * 31);
      if (toward) aimed.push(toward);
    }
    const windows = aimed.map((t) => t.window);
    expect(windows).not.toContain('crash keep-all @ POST · first');
    expect(new Set(windows).size).toBe(windows.length);
    // The POST's request gets every response fault; both steps a crash of each kind the families allow.
    expect(windows).toContain('response drop-after-commit @ POST · first');
    expect(windows).toContain('crash keep-all @ append · first');
    expect(windows.some((w) => w.startsWith('crash lose-unsynced'))).toBe(false); // disk is not among the families
    const drop = aimed.find((t) => t.window === 'response drop-after-commit @ POST · first');
    expect(drop?.fault).toEqual({ kind: 'response', request: 0, fault: 'drop-after-commit' });
    expect(drop?.parent).toBe(0); // the lowest run that offered the point
  });

  test("in a shard, the shard's own runs are counted: each shard aims at every other of its runs after its first epoch", () => {
    const shard = new WindowGuide({ seed: 7, arbitrary: {}, parentScenario: () => baseScenario(), epochRuns: 4, aim: true, stride: 2 });
    // Shard 2 of 2 owns 1, 3, 5, …: its runs 0, 1, 2, … Its fifth and sixth runs are 9 and 11.
    expect([1, 3, 5, 7, 9, 11, 13, 15].map((i) => shard.aims(i))).toEqual([false, false, false, false, false, true, false, true]);
    expect(shard.waitsFor(11)).toBe(8); // its first epoch: 1, 3, 5, 7
    // Shard 1 of 2 (0, 2, 4, …) aims as often: its sixth run, index 10.
    expect([0, 2, 4, 6, 8, 10].map((i) => shard.aims(i))).toEqual([false, false, false, false, false, true]);
  });

  test('what a run aims at depends on the earlier epochs alone, not on the order their runs came back', () => {
    const aimsOf = (order: number[]): (string | undefined)[] => {
      const guide = guideOf();
      for (const i of order) guide.record(i, run(i === 2 ? ['response delay @ POST · first'] : []));
      guide.record(9, run(['crash keep-all @ append · first'])); // a later epoch's run, back early: not counted yet
      guide.settle(4);
      return [5, 7].map((i) => guide.towardFor(i, i)?.window);
    };
    const a = aimsOf([0, 1, 2, 3]);
    expect(aimsOf([3, 1, 0, 2])).toEqual(a);
    expect(a).not.toContain('response delay @ POST · first');
    expect(a.every((w) => w !== undefined)).toBe(true);
  });

  test('an aimed run that strikes its window is counted; not aiming, the guide only records', () => {
    const guide = guideOf();
    for (const i of [0, 1, 2, 3]) guide.record(i, run([]));
    guide.settle(4);
    const toward = guide.towardFor(5, 0) as Toward;
    guide.record(5, { ...run([toward.window]), offered: [] }, toward);
    expect(guide.summary(5)).toMatchObject({ windows: [toward.window], aimedRuns: 1, aimedHits: 1 });
    const plain = guideOf(false);
    expect(plain.aims(5)).toBe(false);
    plain.record(0, run(['crash keep-all @ POST · first']));
    const summary = plain.summary(10);
    expect(summary).toMatchObject({ windows: ['crash keep-all @ POST · first'], aimedRuns: 0, aimedHits: 0 });
    // Within reach: every window a fault of the families could strike at the two steps the run offered: a
    // process kill at each, every response fault at the POST (the long delay is a 'response delay' too).
    expect(summary.reachable).toBe(2 + RESPONSE_FAULTS.length);
  });

  test("an aimed run's value wraps its parent's and shrinks as the parent does, the aimed fault kept", () => {
    const base = scenarioArbitrary({ faults: ['crash', 'response'] });
    const toward: Toward = { parent: 3, fault: { kind: 'response', request: 0, fault: 'drop-after-commit' }, window: 'response drop-after-commit @ POST · first' };
    const arbitrary = new TowardArbitrary(base, () => scenarioAt(base, 11, 3), toward);
    const parent = scenarioAt(base, 11, 3);
    const value = arbitrary.generate();
    expect(value.value_).toEqual(withToward(parent.value_, toward));
    const ours = [...arbitrary.shrink(value.value_, value.context).take(5)].map((v) => v.value_);
    const parents = [...base.shrink(parent.value_, parent.context).take(5)].map((v) => withToward(v.value_, toward));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours).toEqual(parents);
    for (const s of ours) expect(s.faults.at(-1)).toEqual(toward.fault);
    expect(arbitrary.canShrinkWithoutContext(value.value_)).toBe(false);
    expect([...arbitrary.shrink(value.value_, undefined)]).toEqual([]);
    // fc's own runner can shrink it too.
    const out = fc.check(fc.property(arbitrary, (s) => s.faults.length === 0), { numRuns: 1, seed: 1 });
    expect(out.failed).toBe(true);
  });
});
