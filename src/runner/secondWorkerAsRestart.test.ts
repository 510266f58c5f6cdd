import { describe, expect, test } from 'vitest';
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import { baseScenario, STANDARD_OPERATIONS } from '../arbitraries.js';
import { gentlerScenarios, simplifyScenario } from './simplifyScenario.js';
import { secondWorkerAsRestart } from './secondWorkerAsRestart.js';

const withFaults = (faults: Fault[], schedule: number[] = []): Scenario => ({ ...baseScenario(STANDARD_OPERATIONS.slice(0, 2)), faults, schedule });
const delivered: Fault = { kind: 'duplicate-delivery', at: { mentions: 'post-b', occurrence: 1 } };
const theirKill: Fault = { kind: 'crash', process: 1, incarnation: 0, at: { mentions: 'post-a', occurrence: 0 }, when: 'before', mode: 'keep-all' };
const restart: Fault = { kind: 'service-restart', atStep: 7 };
const kill = (occurrence: number, when: 'after' | 'before', mentions = 'post-b'): Fault => ({ kind: 'crash', process: 0, incarnation: 0, at: { mentions, occurrence }, when, mode: 'keep-all' });

describe('secondWorkerAsRestart', () => {
  test("the delivery becomes a kill of worker 0 at the first calls naming what it was anchored to, after then before; the second worker's faults worker 0's, an incarnation later", () => {
    const candidates = secondWorkerAsRestart(withFaults([delivered, theirKill, restart], [1, 0, 1]));
    const moved: Fault = { ...theirKill, process: 0, incarnation: 1 } as Fault;
    expect(candidates.map((s) => s.faults)).toEqual([1, 2, 3, 4].flatMap((occurrence) => [[restart, kill(occurrence, 'after'), moved], [restart, kill(occurrence, 'before'), moved]]));
    expect(candidates.every((s) => s.schedule.length === 0)).toBe(true);
    // A delivery by global step: the kill on the task's first key, from its first call.
    expect(secondWorkerAsRestart(withFaults([{ kind: 'duplicate-delivery', atStep: 40 }]))[0]?.faults).toEqual([kill(0, 'after', 'post-a')]);
  });

  test('not with worker 0 faults of its own, two deliveries, or none', () => {
    expect(secondWorkerAsRestart(withFaults([delivered, theirKill, { ...theirKill, process: 0 } as Fault]))).toEqual([]);
    expect(secondWorkerAsRestart(withFaults([delivered, delivered, theirKill]))).toEqual([]);
    expect(secondWorkerAsRestart(withFaults([theirKill]))).toEqual([]);
  });

  test('simplifyScenario takes it (a gentler rewrite) only when the one-worker story fails in fewer steps', async () => {
    // The failure needs a fresh process to recover from the log and be killed before its first call naming post-a.
    const restarted = (s: Scenario): boolean => s.faults.some((f) => f.kind === 'crash' && f.process === 0 && f.incarnation === 0 && f.at?.occurrence === 2 && f.when === 'after');
    const recovers = (s: Scenario): boolean => s.faults.some((f) => f.kind === 'duplicate-delivery') || restarted(s);
    const killed = (s: Scenario): boolean => s.faults.some((f) => f.kind === 'crash' && f.at?.mentions === 'post-a' && f.at.occurrence === 0 && f.when === 'before' && (f.process === 1 || f.incarnation === 1));
    const steps = (two: number, one: number) => async (s: Scenario): Promise<number | undefined> => (recovers(s) && killed(s) ? (s.faults.some((f) => f.kind === 'duplicate-delivery') ? two : one) : undefined);
    const found = withFaults([delivered, theirKill], [1]);
    expect(gentlerScenarios(found).some((s) => restarted(s))).toBe(true);
    const shorter = await simplifyScenario(found, steps(81, 56), { maxAttempts: 200 });
    expect(shorter.scenario.faults).toEqual([kill(2, 'after'), { ...theirKill, process: 0, incarnation: 1 }]);
    expect((await simplifyScenario(found, steps(56, 81), { maxAttempts: 200 })).scenario.faults).toEqual([delivered, theirKill]);
  });
});
