/**
 * A run that reaches a bound says which, and what it was made of; from format 3 on, the default
 * bounds grow with what the scenario's faults ask of virtual time, so a journal that polls through
 * a fault's own wait is not cut short by a bound sized for a run without it (issue 51).
 */
import { describe, expect, test } from 'vitest';
import type { JournalAdapter } from '../model/contract/contract.js';
import { judge } from '../model/judge.js';
import { parseScenario } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';

/** Worker 0 holds a lock file through its work; a second worker polls for it every 5 ms, then does the same. */
const poller: JournalAdapter = {
  name: 'polls-a-lock',
  async run(env) {
    const exists = async (): Promise<boolean> => env.fs.readFile('lock', 'utf8').then(() => true, () => false);
    while (await exists()) await env.clock.sleep(5);
    await env.fs.writeFile('lock', String(env.pid));
    await env.fs.appendFile('log', `worker ${env.pid} had the lock\n`);
    await env.fs.unlink('lock');
  },
  inspect: () => ({}),
};
/** Worker 0 pauses 30 s holding the lock, while the duplicate polls: ~6,000 polls of two steps each. */
const scenario = (version: number) => parseScenario({
  format: 'durasim.scenario', version, task: { id: 't', operations: [] },
  faults: [{ kind: 'duplicate-delivery', atStep: 2 }, { kind: 'pause', process: 0, incarnation: 0, step: 2, pauseMs: 30_000 }],
});

describe('a journal that polls through a 30 s pause', () => {
  test('format 3: finishes within the grown step bound, no violation', async () => {
    const result = await simulate(poller, scenario(3));
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(result.trace.filter((e) => e.step !== undefined && !e.op.endsWith(':result')).length).toBeGreaterThan(5_000);
    expect(result.trace.filter((e) => e.op === 'fs.appendFile').length).toBe(2);
    expect(judge(result).map((v) => `${v.code} ${v.actual}`)).toEqual([]);
  });

  test('format 2 replays as it ran, in the words it was recorded with: cut at 5,000 steps', async () => {
    const result = await simulate(poller, scenario(2));
    expect(result.outcome).toEqual({ kind: 'bounds-exceeded', bound: 'steps', limit: 5_000, detail: '5000 steps taken, the bound is 5000' });
    expect(judge(result).map((v) => v.code)).toEqual(['convergence']);
  });

  test('format 3, with the bound set as it was: the stop says which bound, that the journal was still going, and not a stall', async () => {
    const result = await simulate(poller, { ...scenario(3), bounds: { ...scenario(3).bounds, maxSteps: 5_001 } });
    expect(result.outcome).toEqual({ kind: 'bounds-exceeded', bound: 'steps', limit: 5_001, detail: '5001 steps taken; the bound is 5,001 steps, and the journal was still taking steps when the run was cut: not a stall or a deadlock' });
  });

  test('a grown bound says what it is made of', async () => {
    const endless: JournalAdapter = { ...poller, name: 'never-lets-go', run: async (env) => { for (;;) await env.clock.sleep(1); } };
    const result = await simulate(endless, parseScenario({ format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] }, faults: [{ kind: 'pause', process: 0, incarnation: 0, step: 2, pauseMs: 10_000 }] }));
    expect(result.outcome).toMatchObject({ kind: 'bounds-exceeded', bound: 'steps', limit: 15_000 });
    expect((result.outcome as { detail: string }).detail).toBe('15000 steps taken; the bound is 15,000 steps (5,000 by default, plus 10,000: one a millisecond of the waits the scenario\'s faults ask), and the journal was still taking steps when the run was cut: not a stall or a deadlock');
  });
});
