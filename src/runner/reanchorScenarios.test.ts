import { describe, expect, test } from 'vitest';
import { judge } from '../../model/judge.js';
import type { Operation } from '../../model/contract/contract.js';
import { parseScenarioText, type Fault, type Scenario } from '../../simulator/scenario/scenario.js';
import { baseScenario, STANDARD_OPERATIONS } from '../arbitraries.js';
import { closeToMinimal, handMinimal, simulatorOf } from '../mutantsMain.js';
import { earlierAnchored, earlierOperations, fewerKindOccurrences, kindToNameAnchored } from './reanchorScenarios.js';
import { simplifyScenario } from './simplifyScenario.js';

const [postA, postB, , , edit] = STANDARD_OPERATIONS as readonly Operation[] as [Operation, Operation, Operation, Operation, Operation];
const task = (...ops: Operation[]): Scenario => ({ ...baseScenario(ops), version: 3 });

describe('the rewrites of anchored faults', () => {
  test('an anchored timed fault is offered at an earlier occurrence, then numbered at the first global steps', () => {
    const takeover: Fault = { kind: 'takeover', holdMs: 2000, at: { mentions: 'notes.md', occurrence: 2 } };
    expect(earlierAnchored({ ...task(edit), faults: [takeover] }).map((s) => s.faults[0])).toEqual([
      { ...takeover, at: { mentions: 'notes.md', occurrence: 1 } },
      { ...takeover, at: { mentions: 'notes.md', occurrence: 0 } },
      ...[0, 1, 2, 4, 8].map((atStep) => ({ kind: 'takeover', holdMs: 2000, atStep })),
    ]);
    // A worker's own fault is no timed one: nothing to offer.
    expect(earlierAnchored({ ...task(postA), faults: [{ kind: 'crash', process: 0, incarnation: 0, when: 'after', mode: 'keep-all', at: { mentions: 'fh.sync', occurrence: 3 } }] })).toEqual([]);
  });

  test("a fault anchored to a step's kind is offered at an occurrence scaled to the operations left; one anchored to a name is kept", () => {
    const sync: Fault = { kind: 'crash', process: 0, incarnation: 0, when: 'before', mode: 'torn-tail', at: { mentions: 'fh.sync', occurrence: 15 } };
    const onKey: Fault = { kind: 'response', at: { mentions: 'post-a', occurrence: 1 }, fault: 'reset-after-commit' };
    const candidates = fewerKindOccurrences({ ...task(postA, postB), faults: [sync, onKey] }, 2, 3);
    expect(candidates.map((s) => s.faults)).toEqual([10, 7].map((occurrence) => [{ ...sync, at: { mentions: 'fh.sync', occurrence } }, onKey]));
  });

  test("a worker's fault anchored to a step's kind is offered anchored to each of the task's names", () => {
    const sync: Fault = { kind: 'crash', process: 0, incarnation: 0, when: 'after', mode: 'lose-unsynced', at: { mentions: 'fh.sync', occurrence: 5 } };
    const faults = kindToNameAnchored({ ...task(postA), faults: [sync] }).map((s) => s.faults[0]);
    expect(faults.slice(0, 2)).toEqual([{ ...sync, at: { mentions: 'post-a', occurrence: 0 } }, { ...sync, at: { mentions: 'post-a', occurrence: 1 } }]);
    expect(faults).toHaveLength(8);
  });

  test("a timed fault anchored to a step's kind is offered anchored to each of the task's names, its own side first (a cancel placed by a sweep after a temp file's open)", () => {
    const cancel: Fault = { kind: 'cancel', at: { mentions: 'fs.open', occurrence: 5 } };
    const faults = kindToNameAnchored({ ...task(postA, postB), faults: [cancel] }).map((s) => s.faults[0]);
    expect(faults.slice(0, 5)).toEqual([
      ...[0, 1, 2, 3].map((occurrence) => ({ kind: 'cancel', at: { mentions: 'post-a', occurrence } })),
      { kind: 'cancel', at: { mentions: 'post-a', occurrence: 0, when: 'after' } },
    ]);
    expect(faults).toContainEqual({ kind: 'cancel', at: { mentions: 'post-b', occurrence: 3, when: 'after' } });
    expect(faults).toHaveLength(16);
    const after: Fault = { kind: 'input-change', resource: 'config', value: 'v2', at: { mentions: 'GET', occurrence: 2, when: 'after' } };
    expect(kindToNameAnchored({ ...task(postA), faults: [after] }).map((s) => s.faults[0])[0]).toEqual({ ...after, at: { mentions: 'post-a', occurrence: 0, when: 'after' } });
    // Anchored to a name already: nothing to offer; nor for a store's fault, whose window is a store call.
    expect(kindToNameAnchored({ ...task(postA), faults: [{ kind: 'cancel', at: { mentions: 'post-a', occurrence: 2 } }] })).toEqual([]);
    expect(kindToNameAnchored({ ...task(postA), faults: [{ kind: 'takeover', holdMs: 2000, at: { mentions: 'store.renew', occurrence: 0 } }] })).toEqual([]);
  });

  test('an operation of the workload is offered as each earlier one the task does not hold, its anchored faults re-anchored to it', () => {
    const dup: Fault = { kind: 'duplicate-delivery', at: { mentions: 'notes.md', occurrence: 1 } };
    const candidates = earlierOperations({ ...task(postB, edit), faults: [dup] }, STANDARD_OPERATIONS);
    expect(candidates.map((s) => [s.task.operations.map((op) => op.key), s.faults])).toEqual([
      [['post-a', 'edit-notes'], [dup]],
      [['post-b', 'post-a'], [{ ...dup, at: { mentions: 'post-a', occurrence: 1 } }]],
      [['post-b', 'post-c'], [{ ...dup, at: { mentions: 'post-c', occurrence: 1 } }]],
      [['post-b', 'read-config'], [{ ...dup, at: { mentions: 'read-config', occurrence: 1 } }]],
    ]);
    // A user's own operation is not the workload's: never replaced.
    expect(earlierOperations({ ...baseScenario([{ kind: 'publish', key: 'send-invoice', body: 'invoice 7' }]), faults: [dup] }, STANDARD_OPERATIONS)).toEqual([]);
  });
});

/**
 * The mutants' findings as the generator's anchoring left them (wt-c before these rewrites: npm run
 * mutants shrank them no further), simplified against the mutant itself: each ends within one fault
 * and 10% of the steps of its hand-minimal scenario, as the mutant gate demands.
 */
const found: Record<string, string> = {
  'repairs-projection': '{"format":"durasim.scenario","version":3,"task":{"id":"task-1","operations":[{"kind":"publish","key":"post-c","body":"artifact c v1"},{"kind":"edit","key":"edit-notes","path":"notes.md","append":"- agent: published a, b and c\\n"}]},"files":{"notes.md":"# Notes\\n"},"faults":[{"kind":"store-edit","key":"task-1/projection","value":"{\\"events\\":0,\\"digest\\":\\"0000000000000000000000000000000000000000000000000000000000000000\\"}","at":{"mentions":"POST","occurrence":0}}]}',
  'lease-by-own-clock': '{"format":"durasim.scenario","version":3,"task":{"id":"task-1","operations":[{"kind":"edit","key":"edit-notes","path":"notes.md","append":"- agent: published a, b and c\\n"}]},"files":{"notes.md":"# Notes\\n"},"faults":[{"kind":"takeover","holdMs":2000,"at":{"mentions":"notes.md","occurrence":1}}]}',
  'zero-tail-reset': '{"format":"durasim.scenario","version":3,"task":{"id":"task-1","operations":[{"kind":"publish","key":"post-a","body":"artifact a v1"},{"kind":"publish","key":"post-b","body":"artifact b v1"},{"kind":"publish","key":"post-c","body":"artifact c v1"}]},"service":{"query":false},"faults":[{"kind":"crash","process":0,"incarnation":0,"when":"before","mode":"torn-tail","tornKeepBytes":0,"tail":"garbage","at":{"mentions":"fh.sync","occurrence":15}},{"kind":"response","at":{"mentions":"post-a","occurrence":0},"fault":"reset-after-commit"}]}',
  'lease-check-then-create': '{"format":"durasim.scenario","version":3,"task":{"id":"task-1","operations":[{"kind":"lookup","key":"read-config","resource":"config"},{"kind":"edit","key":"edit-notes","path":"notes.md","append":"- agent: published a, b and c\\n"}]},"files":{"notes.md":"# Notes\\n"},"service":{"resources":{"config":"v1"}},"faults":[{"kind":"duplicate-delivery","at":{"mentions":"fs.readFile","occurrence":0}}],"schedule":[1]}',
  // Invented for these rewrites (no hunt found it): a takeover anchored to the edit's file, the edit after a publish.
  'ignores-takeover': '{"format":"durasim.scenario","version":3,"task":{"id":"task-1","operations":[{"kind":"publish","key":"post-c","body":"artifact c v1"},{"kind":"edit","key":"edit-notes","path":"notes.md","append":"- agent: published a, b and c\\n"}]},"files":{"notes.md":"# Notes\\n"},"faults":[{"kind":"takeover","holdMs":2000,"at":{"mentions":"notes.md","occurrence":0}}]}',
};

describe('anchored findings simplify close to the hand-minimal scenario', () => {
  test.each(Object.keys(found))('%s', async (name) => {
    const simulateAsProcesses = await simulatorOf(name);
    const measure = async (scenario: Scenario): Promise<number | undefined> => {
      const result = await simulateAsProcesses(scenario);
      return judge(result).length > 0 ? result.stats.steps : undefined;
    };
    const start = parseScenarioText(found[name] as string);
    expect(await measure(start)).toBeDefined();
    const { scenario } = await simplifyScenario(start, measure, { maxAttempts: 200 });
    const shrunk = { faults: scenario.faults.length, steps: await measure(scenario) };
    const hand = await handMinimal(name);
    expect(closeToMinimal({ ...shrunk, ...hand }), `${shrunk.faults} faults / ${shrunk.steps} steps; hand-minimal ${hand.handFaults} / ${hand.handSteps}: ${JSON.stringify(scenario.faults)}`).toBe(true);
  });
});
