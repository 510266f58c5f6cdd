import { describe, expect, test } from 'vitest';
import { compareSteps, stepName, workerSteps, type StepLine, type WorkerStep } from './workerSteps.js';

const step = (worker: string, n: number, op: string, call = 0): WorkerStep => ({ worker, step: n, op, call });

describe('worker steps of either world', () => {
  test('are read from a simulated trace (calls from stepCalls) and a real one (calls on the lines) alike', () => {
    const simulated: StepLine[] = [
      { seq: 0, actor: 'supervisor', op: 'start', detail: 'worker-0#0' },
      { seq: 1, actor: 'worker-0', incarnation: 0, step: 0, op: 'fetch', detail: 'GET /x' },
      { seq: 2, actor: 'worker-0', incarnation: 0, step: 0, op: 'fetch:result', detail: '200' },
      { seq: 3, actor: 'worker-0', incarnation: 0, op: 'timer', detail: 'setTimeout fired' },
      { seq: 4, actor: 'worker-0', incarnation: 0, step: 1, op: 'fs.open', detail: 'a w' },
    ];
    expect(workerSteps(simulated, { 4: 1 })).toEqual([step('worker-0#0', 0, 'fetch'), step('worker-0#0', 1, 'fs.open', 1)]);
    const real: StepLine[] = [{ seq: 0, actor: 'worker-1', incarnation: 2, step: 5, op: 'fs.open', detail: 'a w', call: 1 }];
    expect(workerSteps(real)).toEqual([step('worker-1#2', 5, 'fs.open', 1)]);
    expect(stepName(step('worker-0#0', 1, 'fs.open', 1))).toBe('worker-0#0 step 1 fs.open (call 2 of run())');
  });
});

describe('where the worlds part', () => {
  const a = step('worker-0#0', 0, 'fetch');
  test('nowhere: the same steps, in the same order', () => {
    expect(compareSteps([a, step('worker-0#0', 1, 'fs.open')], [a, step('worker-0#0', 1, 'fs.open')])).toEqual({ kind: 'same' });
  });

  test('two calls that took their steps in another order, even with the same operation at the same step number: another order', () => {
    const simulated = [a, step('worker-0#0', 1, 'fs.open', 1), step('worker-0#0', 2, 'fs.write', 1), step('worker-0#0', 3, 'fs.open')];
    const real = [a, step('worker-0#0', 1, 'fs.open'), step('worker-0#0', 2, 'fs.open', 1), step('worker-0#0', 3, 'fs.write', 1)];
    expect(compareSteps(simulated, real)).toEqual({ kind: 'parted', at: 1, anotherOrder: true });
  });

  test('two workers that took their steps in another order: another order', () => {
    expect(compareSteps([step('worker-0#0', 0, 'fs.open'), step('worker-1#0', 0, 'fs.stat')], [step('worker-1#0', 0, 'fs.stat'), step('worker-0#0', 0, 'fs.open')])).toEqual({ kind: 'parted', at: 0, anotherOrder: true });
  });

  test('the program doing something else (another operation of the same call, or of a call whose next step was another), or one world ending first: parted, not another order', () => {
    expect(compareSteps([a, step('worker-0#0', 1, 'fs.open')], [a, step('worker-0#0', 1, 'fetch')])).toEqual({ kind: 'parted', at: 1, anotherOrder: false });
    expect(compareSteps([a, step('worker-0#0', 1, 'fs.open', 1)], [a, step('worker-0#0', 1, 'fs.stat')])).toEqual({ kind: 'parted', at: 1, anotherOrder: false });
    expect(compareSteps([a, step('worker-0#0', 1, 'fs.open')], [a])).toEqual({ kind: 'parted', at: 1, anotherOrder: false });
  });
});
