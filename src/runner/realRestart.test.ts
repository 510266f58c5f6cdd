import { describe, expect, test } from 'vitest';
import { stepMentions } from '../../simulator/scenario/scenarioEvents.js';
import type { Scenario } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { baseScenario } from '../arbitraries.js';
import { referenceJournal } from '../journals/reference.js';
import { realRestartPlans, realRestartScenarios } from './realRestart.js';

describe("a clean check's real restart: where its one crash strikes", () => {
  test("the first two restarts: before the first step naming the first key, and, once the service has answered, before the first step naming the last key (the work before it done, the last operation's to do)", async () => {
    const base = baseScenario();
    expect(base.task.operations.length).toBeGreaterThan(1);
    const faultFree = await simulate(referenceJournal, base);
    const [early, late] = realRestartScenarios(base, faultFree.trace) as [Scenario, Scenario, Scenario];
    expect(early.faults).toEqual(realRestartScenarios(base)[0]?.faults);
    expect(late.faults).toHaveLength(1);
    const [crash] = late.faults;
    expect(crash).toMatchObject({ kind: 'crash', process: 0, incarnation: 0, when: 'before', mode: 'keep-all' });
    const lastKey = base.task.operations.at(-1)?.key as string;
    const at = (crash as { at: { mentions: string; occurrence: number } }).at;
    expect(at.mentions).toBe(lastKey);
    // Its occurrence counts the steps naming the last key before the first one after the service's first answer.
    const answered = faultFree.trace.find((e) => e.actor === 'service' && e.op === 'receive')?.seq as number;
    const steps = faultFree.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined && !e.op.endsWith(':result'));
    const naming = steps.filter((e) => stepMentions(e.op, e.detail, lastKey));
    expect(at.occurrence).toBe(naming.filter((e) => e.seq < answered).length);
    // Run, it crashes there, after the first operation's answer, and restarts.
    const restarted = await simulate(referenceJournal, late);
    const crashedAt = restarted.trace.findIndex((e) => e.actor === 'supervisor' && e.op === 'crash');
    expect(crashedAt).toBeGreaterThan(restarted.trace.findIndex((e) => e.actor === 'service' && e.op === 'receive'));
    expect(restarted.trace.some((e) => e.actor === 'supervisor' && e.op === 'start' && e.detail.endsWith('#1'))).toBe(true);
  });

  test("a task of one key: the later crash is before its first step once the service answered (the reference journal's last step naming it)", async () => {
    const base = baseScenario();
    const one: Scenario = { ...base, task: { ...base.task, operations: base.task.operations.slice(0, 1) } };
    const faultFree = await simulate(referenceJournal, one);
    const [, late] = realRestartScenarios(one, faultFree.trace) as [Scenario, Scenario];
    const key = one.task.operations[0]?.key as string;
    const naming = faultFree.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined && !e.op.endsWith(':result') && stepMentions(e.op, e.detail, key));
    expect(late.faults[0]).toMatchObject({ at: { mentions: key, occurrence: naming.length - 1 } });
  });

  test('a third in flight: after the last request naming a published key, its answer never heard; run, the restarted process recovers that key', async () => {
    const base = baseScenario();
    const faultFree = await simulate(referenceJournal, base);
    const plans = realRestartPlans(base, faultFree.trace);
    expect(plans.map((p) => p.what.split(':')[0])).toEqual(['early', 'late', 'in flight']);
    const inFlight = plans[2]?.scenario as Scenario;
    const published = base.task.operations.filter((op) => op.kind === 'publish').map((op) => op.key);
    const lastPublished = published.at(-1) as string;
    expect(published.length).toBeGreaterThan(1);
    // The crash is after the last request naming the last published key: its occurrence counts the steps naming that key before it.
    const own = faultFree.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined && !e.op.endsWith(':result'));
    const request = own.filter((e) => e.op === 'fetch' && stepMentions(e.op, e.detail, lastPublished)).at(-1) as { step: number; seq: number };
    expect(inFlight.faults).toEqual([{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: lastPublished, occurrence: own.filter((e) => (e.step as number) < request.step && stepMentions(e.op, e.detail, lastPublished)).length }, when: 'after', mode: 'keep-all' }]);
    // Run: the service received the request, the first process died before its next step, and the restarted one dealt with the key.
    const restarted = await simulate(referenceJournal, inFlight);
    const crashedAt = restarted.trace.findIndex((e) => e.actor === 'supervisor' && e.op === 'crash');
    const received = restarted.trace.filter((e) => e.actor === 'service' && e.op === 'receive' && e.detail.includes(lastPublished));
    expect(received.length).toBeGreaterThan(0);
    expect(restarted.trace.indexOf(received[0] as (typeof restarted.trace)[number])).toBeLessThan(crashedAt);
    expect(restarted.trace.slice(crashedAt).some((e) => e.actor === 'worker-0' && (e.incarnation ?? 0) === 1 && stepMentions(e.op, e.detail, lastPublished))).toBe(true);
  });

  test('a task of lookups alone: the in-flight crash is after its last request', async () => {
    const base = baseScenario();
    const lookups: Scenario = { ...base, task: { ...base.task, operations: base.task.operations.filter((op) => op.kind === 'lookup') } };
    expect(lookups.task.operations.length).toBeGreaterThan(0);
    const faultFree = await simulate(referenceJournal, lookups);
    const inFlight = realRestartPlans(lookups, faultFree.trace).find((p) => p.what.startsWith('in flight'));
    const requests = faultFree.trace.filter((e) => e.actor === 'worker-0' && e.op === 'fetch');
    expect(requests.length).toBeGreaterThan(0);
    expect(inFlight?.scenario.faults[0]).toMatchObject({ kind: 'crash', when: 'after' });
  });

  test('without the fault-free trace, the early restart alone; no operation, no restart', () => {
    const base = baseScenario();
    expect(realRestartScenarios(base).map((s) => s.faults)).toEqual([[{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: base.task.operations[0]?.key, occurrence: 0 }, when: 'before', mode: 'keep-all' }]]);
    expect(realRestartScenarios({ ...base, task: { ...base.task, operations: [] } })).toEqual([]);
  });
});
