/** Shrinking walks fast-check's shrink trees and passes over a candidate `keep` refuses (one outside the run's shape): never run, never taken. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { Fault, Scenario } from '../../simulator/scenario/scenario.js';
import { baseScenario, STANDARD_OPERATIONS } from '../arbitraries.js';
import { scenarioAt } from './scenarioSource.js';
import { shrinkScenario } from './shrinkScenario.js';

const machine: Fault = { kind: 'crash', process: 0, incarnation: 0, step: 3, when: 'after', mode: 'lose-unsynced' };
const kill: Fault = { kind: 'crash', process: 0, incarnation: 0, step: 3, when: 'after', mode: 'keep-all' };
// A tree whose items shrink toward a machine crash: what a kill-only run must never be shrunk into.
const scenarios = fc.array(fc.constantFrom(machine, kill), { minLength: 2, maxLength: 4 }).map((faults): Scenario => ({ ...baseScenario(STANDARD_OPERATIONS.slice(0, 1)), faults }));
const killsOnly = (s: Scenario): boolean => s.faults.every((f) => f.kind === 'crash' && f.mode === 'keep-all');

test("a candidate outside the run's shape is never run nor taken: a kill-only run shrinks to kills alone", async () => {
  // A drawn value (with its shrink context) of four kills.
  const value = [...Array(500).keys()].map((i) => scenarioAt(scenarios, 7, i)).find((v) => v.value_.faults.length === 4 && killsOnly(v.value_));
  expect(value).toBeDefined();
  const tried: Scenario[] = [];
  const stillFails = async (s: Scenario): Promise<boolean> => {
    tried.push(s);
    return true;
  };
  const shaped = await shrinkScenario(scenarios, value as fc.Value<Scenario>, stillFails, { parallel: 2, maxAttempts: 500, keep: killsOnly });
  expect(tried.length).toBeGreaterThan(0);
  expect(tried.every(killsOnly)).toBe(true);
  expect(shaped.value.value_.faults).toEqual([kill, kill]);
  // Without it, the same shrink takes the machine crashes the tree offers.
  tried.length = 0;
  expect(killsOnly((await shrinkScenario(scenarios, value as fc.Value<Scenario>, stillFails, { parallel: 2, maxAttempts: 500 })).value.value_)).toBe(false);
});
