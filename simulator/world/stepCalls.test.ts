/**
 * Which call of run() took each step (sandbox/turn.ts runAsCall): a process serving a concurrent
 * call tells its two calls' steps apart, as `durasim confirm` needs to compare them with a real
 * process's; code the world runs later for a call (a timer's callback, a callback-style call's
 * answer, a timeout's abort) is that call's. Beside the trace (SimulationResult.stepCalls, with
 * diskCalls), never in it.
 */
import * as fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { JournalAdapter } from '../../model/contract/contract.js';
import { baseScenario } from '../../src/arbitraries.js';
import { simulate } from '../simulate.js';

/** Two calls: the first sleeps and writes; the second (concurrent) goes through a timer, a callback and a timeout before its steps. */
function twoCalls(): JournalAdapter {
  let calls = 0;
  return {
    name: 'two-calls',
    async run(env) {
      if (++calls === 1) {
        await env.clock.sleep(10);
        await env.fs.writeFile('one', 'x');
        return;
      }
      // Each step below is made inside code the world runs later: a timer's callback, a callback-style call's answer, an abort's listener.
      await new Promise<void>((resolve) => setTimeout(() => void env.fs.stat('.').then(() => resolve()), 1));
      await new Promise<void>((resolve) => fs.stat('.', () => void env.fs.readdir('.').then(() => resolve())));
      const signal = await env.clock.timeout(2);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => void env.fs.readdir('.').then(() => resolve()), { once: true }));
    },
    inspect: () => ({}),
  };
}

describe("the call of run() a step belongs to", () => {
  test('a concurrent call\'s steps are call 1, after its timers, callbacks and aborts too; the first call\'s are 0 (absent)', async () => {
    const scenario = { ...baseScenario([]), faults: [{ kind: 'concurrent-call' as const, atStep: 1, process: 0 }] };
    const result = await simulate(twoCalls(), scenario, { diskCalls: true });
    const steps = result.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined && !e.op.endsWith(':result'));
    const byCall = steps.map((e) => `${result.stepCalls?.[e.seq] ?? 0} ${e.op}`);
    expect(byCall).toEqual(['0 clock.sleep', '1 setTimeout', '1 fs.stat', '1 fs.stat', '1 fs.readdir', '1 clock.timeout', '1 fs.readdir', '0 fs.writeFile', '0 fs.writeFile', '0 fs.writeFile']);
    expect(new Set(Object.values(result.stepCalls ?? {}))).toEqual(new Set([1]));
    // Nothing of it is in the trace: the same scenario without the option gives the same trace.
    expect((await simulate(twoCalls(), scenario)).traceHash).toBe(result.traceHash);
  });
});
