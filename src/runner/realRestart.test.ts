import { describe, expect, test } from 'vitest';
import { judge } from '../../model/judge.js';
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

  test('a third in flight: a chain of crashes, each incarnation killed before the last step naming the last operation of a kind; run, each restarted process recovers that operation (a publish after its request, an edit after its file is placed)', async () => {
    const base = baseScenario();
    const faultFree = await simulate(referenceJournal, base);
    const plans = realRestartPlans(base, faultFree.trace);
    expect(plans.map((p) => p.what.split(':')[0])).toEqual(['early', 'late', 'in flight', 'in flight, a step earlier']);
    const inFlight = plans[2]?.scenario as Scenario;
    const ops = base.task.operations;
    const lastOfKind = ops.filter((op, i) => !ops.slice(i + 1).some((later) => later.kind === op.kind));
    expect(lastOfKind.map((op) => op.kind).sort()).toEqual(['edit', 'lookup', 'publish']);
    const own = faultFree.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined && !e.op.endsWith(':result'));
    const naming = (key: string) => own.filter((e) => stepMentions(e.op, e.detail, key));
    expect(inFlight.faults).toEqual(lastOfKind.map((op, incarnation) => ({ kind: 'crash', process: 0, incarnation, at: { mentions: op.key, occurrence: naming(op.key).length - 1 }, when: 'before', mode: 'keep-all' })));
    // The publish's last step naming it comes after its request: its crash is in flight.
    const publish = lastOfKind.find((op) => op.kind === 'publish')?.key as string;
    expect(naming(publish).at(-2)?.op).toBe('fetch');
    // Run: every crash strikes, one per incarnation, and each restarted process names the key its predecessor was killed in.
    const restarted = await simulate(referenceJournal, inFlight);
    const crashes = restarted.trace.filter((e) => e.actor === 'supervisor' && e.op === 'crash');
    expect(crashes).toHaveLength(lastOfKind.length);
    lastOfKind.forEach((op, incarnation) => {
      const after = restarted.trace.slice(restarted.trace.indexOf(crashes[incarnation] as (typeof restarted.trace)[number]));
      expect(after.some((e) => e.actor === 'worker-0' && (e.incarnation ?? 0) === incarnation + 1 && stepMentions(e.op, e.detail, op.key)), op.key).toBe(true);
    });
    // The request in flight reached the service before its process was killed.
    expect(restarted.trace.findIndex((e) => e.actor === 'service' && e.op === 'receive' && e.detail.includes(publish))).toBeLessThan(restarted.trace.indexOf(crashes[lastOfKind.findIndex((op) => op.key === publish)] as (typeof restarted.trace)[number]));
  });

  test('a fourth in flight a step earlier: for the same operations, each incarnation killed before the step before that one naming the operation; run, the publish is recovered with its request never sent, the edit with its file moved aside and not placed', async () => {
    const base = baseScenario();
    const faultFree = await simulate(referenceJournal, base);
    const earlier = realRestartPlans(base, faultFree.trace).find((p) => p.what.startsWith('in flight, a step earlier'))?.scenario as Scenario;
    const ops = base.task.operations;
    const lastOfKind = ops.filter((op, i) => !ops.slice(i + 1).some((later) => later.kind === op.kind));
    expect(earlier.faults).toHaveLength(lastOfKind.length);
    const restarted = await simulate(referenceJournal, earlier);
    const crashes = restarted.trace.filter((e) => e.actor === 'supervisor' && e.op === 'crash');
    expect(crashes).toHaveLength(lastOfKind.length);
    // The step each crash struck (the worker's last step line before it), per operation.
    const struck = crashes.map((crash) => restarted.trace.slice(0, restarted.trace.indexOf(crash)).filter((e) => e.actor === 'worker-0' && e.step !== undefined && !e.op.endsWith(':result')).at(-1));
    const publish = lastOfKind.find((op) => op.kind === 'publish')?.key as string;
    const edit = lastOfKind.find((op) => op.kind === 'edit');
    const at = (key: string) => struck[lastOfKind.findIndex((op) => op.key === key)];
    expect(at(publish)).toMatchObject({ op: 'fetch' });
    expect(at(publish)?.detail).toContain(publish);
    expect(at(edit?.key as string)).toMatchObject({ op: 'fs.link' });
    // The publish's request never reached the service before its process was killed: the restarted process sent it.
    const crashOfPublish = restarted.trace.indexOf(crashes[lastOfKind.findIndex((op) => op.key === publish)] as (typeof restarted.trace)[number]);
    const received = restarted.trace.filter((e) => e.actor === 'service' && e.op === 'receive' && e.detail.includes(publish)).map((e) => restarted.trace.indexOf(e));
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((i) => i > crashOfPublish)).toBe(true);
    // The edit's file was moved aside when the crash struck, and the restarted process placed it: the edit applied once.
    expect(restarted.trace.slice(0, restarted.trace.indexOf(crashes.at(-1) as (typeof restarted.trace)[number])).some((e) => e.op === 'fs.rename' && e.detail.includes(`${edit?.kind === 'edit' ? edit.path : ''}.aside-`))).toBe(true);
    expect(judge(restarted)).toEqual([]);
  });

  test('the chain stays within the bound on incarnations, and leaves out an operation no step names twice', () => {
    const base = baseScenario();
    const trace = [0, 1, 2].map((step) => ({ seq: step, actor: 'worker-0', incarnation: 0, step, op: 'fh.appendFile', detail: `journal.jsonl "${base.task.operations[0]?.key}"` })) as unknown as Parameters<typeof realRestartPlans>[1];
    const one = (bound: number) => realRestartPlans({ ...base, bounds: { ...base.bounds, maxIncarnations: bound } }, trace).find((p) => p.what.startsWith('in flight'));
    // Only the first operation is named (three times) and it is a publish, not the task's last of its kind: no chain.
    expect(one(8)).toBeUndefined();
    const single: Scenario = { ...base, task: { ...base.task, operations: base.task.operations.slice(0, 1) } };
    expect(realRestartPlans(single, trace).find((p) => p.what.startsWith('in flight'))?.scenario.faults).toEqual([{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: single.task.operations[0]?.key, occurrence: 2 }, when: 'before', mode: 'keep-all' }]);
    expect(realRestartPlans({ ...single, bounds: { ...single.bounds, maxIncarnations: 1 } }, trace).find((p) => p.what.startsWith('in flight'))).toBeUndefined();
  });

  test('without the fault-free trace, the early restart alone; no operation, no restart', () => {
    const base = baseScenario();
    expect(realRestartScenarios(base).map((s) => s.faults)).toEqual([[{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: base.task.operations[0]?.key, occurrence: 0 }, when: 'before', mode: 'keep-all' }]]);
    expect(realRestartScenarios({ ...base, task: { ...base.task, operations: [] } })).toEqual([]);
  });
});
