/** The access token is watched on the disk and in the store, masked in the trace, and checked by the service. */
import { describe, expect, test } from 'vitest';
import type { Env, JournalAdapter, Task } from '../../model/contract/contract.js';
import { canaryOf } from '../../model/contract/secret.js';
import { judge } from '../../model/judge.js';
import { parseScenario } from '../scenario/scenario.js';
import { simulate, type SimulationResult } from '../simulate.js';

const TOKEN = canaryOf(42);
const scenario = (accessToken = true) =>
  parseScenario({ format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'a', body: 'body' }], ...(accessToken ? { accessToken: { canary: 42 } } : {}) } });
const journal = (run: (env: Env, task: Task) => Promise<void>): JournalAdapter => ({ name: 'secret-test', run, inspect: () => ({}) });
const post = (env: Env, task: Task, authorization?: string) =>
  env.fetch(`${task.service.url}/operations/a`, { method: 'POST', body: 'body', ...(authorization ? { headers: { authorization } } : {}) });
const everything = (r: SimulationResult): string => JSON.stringify([r.trace, r.exits, judge(r)]);

describe('the access token', () => {
  test('is handed to every incarnation, and a request that carries it is served', async () => {
    let seen: string | undefined;
    const r = await simulate(journal(async (env, task) => {
      seen = task.accessToken;
      expect((await post(env, task, `Bearer ${task.accessToken}`)).status).toBe(201);
    }), scenario());
    expect(seen).toBe(TOKEN);
    expect(r.secretSightings).toEqual([]);
    expect(judge(r, ['no-secret-persisted'])).toEqual([]);
  });

  test('a wrong credential is refused (401) with no effect; none at all is served', async () => {
    const statuses: number[] = [];
    const r = await simulate(journal(async (env, task) => {
      statuses.push((await post(env, task, 'Bearer stale')).status, (await post(env, task)).status);
    }), scenario());
    expect(statuses).toEqual([401, 201]);
    expect(r.effects).toHaveLength(1);
    expect(r.requests.map((q) => q.unauthorized ?? false)).toEqual([true, false]);
  });

  test('written to a file — whole, or split across two appends — it is seen there, and masked in the trace', async () => {
    const r = await simulate(journal(async (env, task) => {
      await env.fs.writeFile('config.json', `{"token":"${task.accessToken}"}`);
      const [head, tail] = [task.accessToken?.slice(0, 20) ?? '', task.accessToken?.slice(20) ?? ''];
      await env.fs.appendFile('log', `x${head}`);
      await env.fs.appendFile('log', `${tail}y\n`);
      await env.fs.appendFile('log', 'harmless\n');
    }), scenario());
    expect(r.secretSightings.map((s) => [s.where, s.name, s.by])).toEqual([['disk', 'config.json', 'worker-0#0'], ['disk', 'log', 'worker-0#0']]);
    expect(judge(r, ['no-secret-persisted']).map((v) => [v.code, v.key])).toEqual([['no-secret-persisted', 'config.json'], ['no-secret-persisted', 'log']]);
    expect(r.trace.find((e) => e.op === 'fs.writeFile')?.detail).toBe('config.json "{\\"token\\":\\"«secret»\\"}"');
    expect(everything(r)).not.toContain('durasim-canary-');
  });

  test('in a file name, or in the store (a value or a key), it is seen too', async () => {
    const r = await simulate(journal(async (env, task) => {
      await env.fs.writeFile(`cache-${task.accessToken}.json`, '{}');
      await env.store.put('task-1/credentials', `${task.accessToken}`);
      await env.store.put(`task-1/by-token/${task.accessToken}`, 'x');
    }), scenario());
    expect(r.secretSightings.map((s) => [s.where, s.name])).toEqual([['disk', '(a file name)'], ['store', 'task-1/credentials'], ['store', '(a key)']]);
    expect(everything(r)).not.toContain('durasim-canary-');
  });

  test('an error message that holds it is masked where durasim keeps it', async () => {
    const r = await simulate(journal(async (_env, task) => {
      throw new Error(`refused with ${task.accessToken}`);
    }), { ...scenario(), bounds: { maxSteps: 100, maxIncarnations: 1, maxVirtualTimeMs: 60_000 } });
    expect(r.exits[0]?.error).toBe('Error: refused with «secret»');
    expect(everything(r)).not.toContain('durasim-canary-');
  });

  test('without a token in the scenario, nothing is watched and a task carries none', async () => {
    let seen: string | undefined = 'unset';
    const r = await simulate(journal(async (env, task) => {
      seen = task.accessToken;
      await env.fs.writeFile('config.json', canaryOf(42));
    }), scenario(false));
    expect(seen).toBeUndefined();
    expect(r.secretSightings).toEqual([]);
  });
});
