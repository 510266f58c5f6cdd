import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fc, test as prop } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import { FAULT_KINDS, scenarioArbitrary, type FaultKind } from './arbitraries.js';
import { familiesOutside, faultFamiliesOf } from './faultFamilies.js';
import { parseScenarioText, type Scenario } from '../simulator/scenario/scenario.js';
import { parseContract } from '../simulator/contract/parseContract.js';
import { runs, seed } from '../properties/budgets.js';

const ROOT = resolve(import.meta.dirname, '..');
const minimal = (name: string): Scenario => parseScenarioText(readFileSync(join(ROOT, 'reports/mutants/minimal', `${name}.json`), 'utf8'));
const withFaults = (faults: unknown[], extra: Record<string, unknown> = {}): Scenario => parseScenarioText(JSON.stringify({ format: 'durasim.scenario', version: 2, task: { id: 't', operations: [{ kind: 'publish', key: 'post-a', body: 'x' }, { kind: 'edit', key: 'edit-notes', path: 'notes.md', append: 'y' }] }, files: { 'notes.md': '' }, faults, ...extra }));

describe('the fault families a scenario uses', () => {
  test.each([
    ['send-before-dispatched', []],
    ['torn-tail-fatal', ['disk']],
    ['claim-after-lease', ['concurrent']],
    ['retries-invalid-argument', ['failure']],
    // A kill into a changed task: the intent family's own kill.
    ['new-process-args', ['intent']],
  ])("%s's hand-minimal scenario: %j", (name, families) => {
    expect(faultFamiliesOf(minimal(name))).toEqual(families);
  });

  test('each kind of fault names its family, once, in FAULT_KINDS order', () => {
    const scenario = withFaults([
      { kind: 'pause', process: 0, incarnation: 0, step: 3, pauseMs: 1000 },
      { kind: 'cancel', atStep: 9 },
      { kind: 'user-edit', atStep: 4, path: 'notes.md', text: 'z' },
      { kind: 'response', request: 1, fault: 'drop-after-commit' },
      { kind: 'io-error', process: 0, incarnation: 0, step: 2, error: 'EIO' },
      { kind: 'crash', process: 0, incarnation: 0, step: 5, when: 'after', mode: 'keep-all' },
      { kind: 'crash', process: 0, incarnation: 1, step: 5, when: 'after', mode: 'lose-unsynced' },
      { kind: 'service-restart', atStep: 3 },
      { kind: 'duplicate-delivery', atStep: 1 },
    ]);
    expect(faultFamiliesOf(scenario)).toEqual(['crash', 'disk', 'io', 'response', 'duplicate', 'user', 'service-restart', 'store']);
    expect(familiesOutside(scenario, ['crash', 'disk', 'io', 'response', 'user'])).toEqual(['duplicate', 'service-restart', 'store']);
  });

  test('a changed task with two kills uses the crash family as well as intent', () => {
    const kill = (incarnation: number) => ({ kind: 'crash', process: 0, incarnation, step: 5, when: 'after' });
    const changed = { taskAfterRestart: { operations: [{ kind: 'publish', key: 'post-a', body: 'x2' }] } };
    expect(faultFamiliesOf(withFaults([kill(0)], changed))).toEqual(['intent']);
    expect(faultFamiliesOf(withFaults([kill(0), kill(1)], changed))).toEqual(['crash', 'intent']);
  });

  // What check draws with some families, it never counts as using another: a check never skips a regression it could have found itself.
  prop.prop([fc.subarray([...FAULT_KINDS], { minLength: 1 }).chain((families) => fc.tuple(fc.constant(families), scenarioArbitrary({ faults: families })))], { numRuns: runs(500), seed: seed(51) })(
    'a scenario check draws with some families uses none outside them',
    ([families, scenario]) => {
      expect(familiesOutside(scenario, families as FaultKind[])).toEqual([]);
    },
  );

  // The same under a contract whose keys expire: the pause past a key's time-to-live is the response family's, and
  // the store's own pauses stay shorter than it (a 5 s TTL is shorter than the store's 12 s and 30 s pauses).
  const contract = (ttlMs: number) => parseContract({ preset: 'payments', memory: { ttlMs } }, 'service', (field, problem) => {
    throw new Error(`${field} ${problem}`);
  });
  prop.prop([fc.subarray([...FAULT_KINDS], { minLength: 1 }).chain((families) => fc.tuple(fc.constant(families), fc.constantFrom(5_000, 86_400_000).chain((ttlMs) => scenarioArbitrary({ faults: families, contract: contract(ttlMs) as NonNullable<ReturnType<typeof contract>> }))))], { numRuns: runs(500), seed: seed(54) })(
    'a scenario check draws under a contract with a key time-to-live uses no family outside those it was given',
    ([families, scenario]) => {
      expect(familiesOutside(scenario, families as FaultKind[])).toEqual([]);
    },
  );

  test('a pause as long as the key\'s time-to-live or longer is the response family\'s; a shorter one the store\'s', () => {
    const pause = (pauseMs: number) => ({ kind: 'pause', process: 0, incarnation: 0, step: 3, pauseMs });
    const under = (pauseMs: number) => withFaults([pause(pauseMs)], { service: { contract: { preset: 'ietf', memory: { ttlMs: 60_000 } } } });
    expect(faultFamiliesOf(under(61_000))).toEqual(['response']);
    expect(faultFamiliesOf(under(30_000))).toEqual(['store']);
    expect(faultFamiliesOf(withFaults([pause(61_000)]))).toEqual(['store']);
  });
});
