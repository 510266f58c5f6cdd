import { describe, expect, test } from 'vitest';
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import { baseScenario, STANDARD_OPERATIONS } from '../arbitraries.js';
import { simplerScenarios, simplifyScenario } from './simplifyScenario.js';
import { soonerIncarnations } from './soonerIncarnations.js';

const withFaults = (faults: Fault[]): Scenario => ({ ...baseScenario(STANDARD_OPERATIONS.slice(0, 1)), faults });
const kill: Fault = { kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 3 }, when: 'before', mode: 'keep-all' };
const eio: Fault = { kind: 'io-error', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 0 }, error: 'EIO' };
const frozen = (incarnation: number, occurrence: number, mentions = 'post-a'): Fault => ({ kind: 'pause', process: 0, incarnation, at: { mentions, occurrence, when: 'after' }, pauseMs: 86_401_000 });
const lost: Fault = { kind: 'response', at: { mentions: 'post-a', occurrence: 0 }, fault: 'drop-after-commit' };

describe('soonerIncarnations', () => {
  test("a dropped kill's worker goes on: its later faults one incarnation sooner, as anchored, then past where the kill struck", () => {
    expect(soonerIncarnations([kill, frozen(1, 0)], 0)).toEqual([[frozen(0, 0)], [frozen(0, 3)], [frozen(0, 4)]]);
    // Only the next incarnation's anchors on the struck name shift; an incarnation after it, or another name, moves sooner only.
    expect(soonerIncarnations([kill, frozen(1, 0, 'notes.md'), frozen(2, 1)], 0)).toEqual([[frozen(0, 0, 'notes.md'), frozen(1, 1)]]);
    // Another worker's faults stay where they are.
    const theirs: Fault = { ...frozen(1, 0), process: 1 } as Fault;
    expect(soonerIncarnations([kill, theirs, frozen(1, 2)], 0)[1]).toEqual([theirs, frozen(0, 5)]);
  });

  test('an I/O error ends an incarnation as a kill does; a replacement takes the ended fault\'s place; nothing to move, nothing offered', () => {
    expect(soonerIncarnations([lost, eio, frozen(1, 2)], 1)).toEqual([[lost, frozen(0, 2)], [lost, frozen(0, 3)]]);
    expect(soonerIncarnations([kill, frozen(1, 0)], 0, lost)[1]).toEqual([lost, frozen(0, 3)]);
    expect(soonerIncarnations([kill, frozen(0, 1)], 0)).toEqual([]);
    expect(soonerIncarnations([frozen(0, 1), frozen(1, 0)], 0)).toEqual([]);
  });

  test('simplifyScenario: an I/O error that only restarted the worker goes, the day-long pause moved into the first incarnation', async () => {
    // The failure needs a lost answer and the worker frozen on the first incarnation's third call naming post-a, or on the restart's first.
    const fails = async (s: Scenario): Promise<number | undefined> => {
      const pause = s.faults.find((f) => f.kind === 'pause');
      const at = pause?.kind === 'pause' ? pause.at : undefined;
      const restarted = s.faults.some((f) => f.kind === 'io-error' && f.incarnation === 0);
      const right = pause?.kind === 'pause' && at?.mentions === 'post-a' && ((restarted && pause.incarnation === 1 && at.occurrence === 2) || (!restarted && pause.incarnation === 0 && at.occurrence === 2));
      return right && s.faults.some((f) => f.kind === 'response') ? 40 + 15 * s.faults.length : undefined;
    };
    const found = withFaults([lost, eio, frozen(1, 2)]);
    expect(await fails(found)).toBe(85);
    const result = await simplifyScenario(found, fails, { maxAttempts: 200 });
    expect(result.scenario.faults).toEqual([lost, frozen(0, 2)]);
    // Offered among the simpler scenarios, after every older rewrite.
    const candidates = simplerScenarios(found).map((s) => JSON.stringify(s.faults));
    expect(candidates).toContain(JSON.stringify([lost, frozen(0, 2)]));
  });

  test('simplifyScenario: a kill that only put the worker in doubt becomes a lost answer, the pause of its restart moved to where the worker now goes on', async () => {
    const fails = async (s: Scenario): Promise<number | undefined> => {
      const pause = s.faults.find((f) => f.kind === 'pause');
      if (pause?.kind !== 'pause' || pause.at?.mentions !== 'post-a') return undefined;
      if (s.faults.some((f) => f.kind === 'crash' && f.incarnation === 0) && pause.incarnation === 1 && pause.at.occurrence === 0) return 58;
      return s.faults.some((f) => f.kind === 'response' && f.fault === 'drop-after-commit') && pause.incarnation === 0 && pause.at.occurrence === 3 ? 41 : undefined;
    };
    const pause = { kind: 'pause', process: 0, incarnation: 1, at: { mentions: 'post-a', occurrence: 0 }, pauseMs: 86_401_000 } as Fault;
    const result = await simplifyScenario(withFaults([kill, pause]), fails, { maxAttempts: 200 });
    expect(result.scenario.faults).toEqual([lost, { ...pause, incarnation: 0, at: { mentions: 'post-a', occurrence: 3 } }]);
  });
});
