/** The simulated process (proc.ts, processEnd.ts) simulate() runs a journal in: process.exit and its status, pid, environment, working folder and exit code, per incarnation. */
import { describe, expect, test } from 'vitest';
import type { Env, JournalAdapter, Task } from '../../model/contract/contract.js';
import { baseScenario } from '../../src/arbitraries.js';
import { simulate } from '../simulate.js';
import type { Fault, Scenario } from '../scenario/scenario.js';

/** A tiny journal built from a function; inspect reports nothing. */
function journal(name: string, run: (env: Env, task: Task) => Promise<void>): JournalAdapter {
  return { name, run, inspect: () => ({}) };
}
function scenario(faults: Fault[] = [], patch: Partial<Scenario> = {}): Scenario {
  return { ...baseScenario([{ kind: 'publish', key: 'a', body: 'body' }]), faults, ...patch };
}

describe('the simulated process', () => {
  test('process.exit(1) ends the incarnation as a failure and the supervisor restarts it; code after it never runs', async () => {
    let afterExit = 0;
    const result = await simulate(
      journal('exits', async (env) => {
        await env.clock.now();
        if (env.incarnation === 0) {
          try {
            process.exit(1);
          } catch {
            // a journal that swallows it still ends: its later env calls are refused
          }
          await env.clock.now();
          afterExit++;
        }
      }),
      scenario(),
    );
    expect(afterExit).toBe(0);
    expect(result.exits).toEqual([{ pid: 0, incarnation: 0, error: 'Error: process.exit(1)' }, { pid: 0, incarnation: 1 }]);
    expect(result.escapes).toEqual([]);
  });

  test('process.exit(256) ends the incarnation as a success and process.exit(-1) as a failure: the status is the low eight bits, as the OS makes it', async () => {
    const exitsWith = async (code: number): Promise<unknown> =>
      (await simulate(journal('exits-with', async (env) => {
        await env.clock.now();
        if (env.incarnation === 0) process.exit(code);
      }), scenario())).exits;
    expect(await exitsWith(256)).toEqual([{ pid: 0, incarnation: 0 }]);
    expect(await exitsWith(-1)).toEqual([{ pid: 0, incarnation: 0, error: 'Error: process.exit(-1)' }, { pid: 0, incarnation: 1 }]);
  });

  test('pid, environment and working directory are the simulated ones, per incarnation', async () => {
    const seen: unknown[] = [];
    await simulate(
      journal('identity', async (env) => {
        await env.clock.now();
        seen.push([process.pid, process.cwd(), process.env.GREETING, Object.keys(process.env)]);
        process.env.GREETING = 'changed in this incarnation'; // shared-safe: journal code, the simulated process's environment (asserted untouched below)
        if (env.incarnation === 0) throw new Error('restart me');
      }),
      scenario([], { environment: { GREETING: 'hello' } }),
    );
    expect(seen).toEqual([
      [1000, '/work', 'hello', ['GREETING']],
      [1001, '/work', 'hello', ['GREETING']],
    ]);
    expect(process.env.GREETING).toBeUndefined();
  });

  test('an environment variable defined (not set) is the simulated process\'s too, and its environment cannot be frozen', async () => {
    const seen: unknown[] = [];
    await simulate(
      journal('defines-env', async (env) => {
        await env.clock.now();
        Object.defineProperty(process.env, 'DEFINED_HERE', { value: 'simulated', writable: true, enumerable: true, configurable: true }); // shared-safe: journal code, the simulated process's environment (asserted untouched below)
        seen.push(process.env.DEFINED_HERE);
        try {
          Object.freeze(process.env);
        } catch (error) {
          seen.push((error as Error).message);
        }
      }),
      scenario(),
    );
    expect(seen).toEqual(['simulated', 'Cannot freeze']);
    expect(process.env.DEFINED_HERE).toBeUndefined();
    expect(Object.isExtensible(process.env)).toBe(true);
  });

  test("the exit code a journal sets is its own: the process durasim runs in keeps its own", async () => {
    const before = process.exitCode;
    const result = await simulate(
      journal('exit-code', async (env) => {
        await env.clock.now();
        process.exitCode = 7;
      }),
      scenario(),
    );
    expect(result.exits).toEqual([{ pid: 0, incarnation: 0 }]);
    expect(process.exitCode).toBe(before);
  });
});
