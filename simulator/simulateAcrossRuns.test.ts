/** What passes from one run of simulate() to the next on a thread: the result's hashes hold nothing of the run; the disk it hands on, nothing of the last. */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Env, JournalAdapter, Task } from '../model/contract/contract.js';
import { baseScenario } from '../src/arbitraries.js';
import { simulate } from './simulate.js';
import type { Scenario } from './scenario/scenario.js';

/** A tiny journal built from a function; inspect reports nothing. */
function journal(name: string, run: (env: Env, task: Task) => Promise<void>): JournalAdapter {
  return { name, run, inspect: () => ({}) };
}
function scenario(patch: Partial<Scenario> = {}): Scenario {
  return { ...baseScenario([{ kind: 'publish', key: 'a', body: 'body' }]), ...patch };
}

describe("the result's hashes", () => {
  const writer = journal('writer', async (env) => {
    await env.fs.writeFile('out.txt', 'hello');
  });

  test('are read like fields (enumerable, copied by a spread and by JSON), computed once, and cover the bytes written', async () => {
    const result = await simulate(writer, scenario());
    expect(result.traceHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.payloadDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(result.traceHash).toBe(result.traceHash);
    expect({ ...result }.traceHash).toBe(result.traceHash);
    expect(JSON.parse(JSON.stringify({ traceHash: result.traceHash, payloadDigest: result.payloadDigest }))).toEqual({ traceHash: result.traceHash, payloadDigest: result.payloadDigest });
    expect(Object.keys(result)).toEqual(expect.arrayContaining(['traceHash', 'payloadDigest']));
    const other = await simulate(journal('writer', async (env) => env.fs.writeFile('out.txt', 'hellO')), scenario());
    expect(other.payloadDigest).not.toBe(result.payloadDigest);
    expect(other.traceHash).not.toBe(result.traceHash);
  });

  test('are computed by getters every result shares: a getter made per result would keep its run alive until a full collection', async () => {
    const [a, b] = [await simulate(writer, scenario()), await simulate(writer, scenario())];
    for (const name of ['traceHash', 'payloadDigest'] as const) {
      const [getA, getB] = [Object.getOwnPropertyDescriptor(a, name)?.get, Object.getOwnPropertyDescriptor(b, name)?.get];
      expect(getA).toBeTypeOf('function');
      expect(getA).toBe(getB);
    }
    expect(a.traceHash).toBe(b.traceHash);
  });
});

describe('a process left over from a finished run, while the next run (on its handed-on disk) goes', () => {
  /** Runs write a file named after their task; the first leaves code behind that the second wakes. */
  const twoRuns = () => {
    let wake: (() => void) | undefined;
    let runs = 0;
    const ghostSaw: string[] = [];
    const adapter = journal('leaves-a-ghost', async (env, task) => {
      const first = runs++ === 0;
      wake?.(); // the second run wakes what the first left behind
      wake = undefined;
      const listing = await env.fs.readdir('.');
      await env.fs.writeFile(`${task.id}.txt`, listing.join(','));
      if (!first) return;
      void (async () => {
        await new Promise<void>((resolve) => (wake = resolve));
        try {
          writeFileSync(join(env.dir, 'ghost-sync.txt'), 'from the last run');
          ghostSaw.push('sync write went through');
        } catch (error) {
          ghostSaw.push(`sync write: ${(error as Error).message}`);
        }
        try {
          ghostSaw.push(`sync readdir: ${readdirSync(env.dir).join(',')}`);
        } catch (error) {
          ghostSaw.push(`sync readdir: ${(error as Error).message}`);
        }
        env.fs.writeFile('ghost-env.txt', 'from the last run').then(() => ghostSaw.push('env write settled'), (error: Error) => ghostSaw.push(`env write: ${error.message}`));
      })();
    });
    return { adapter, ghostSaw };
  };
  const second = scenario({ task: { id: 'second', operations: [] } });

  test("reaches nothing of it: its calls are refused or never settle, and the next run's trace is what it is alone", async () => {
    const { adapter, ghostSaw } = twoRuns();
    const first = await simulate(adapter, scenario({ task: { id: 'first', operations: [] } }));
    expect(first.outcome).toEqual({ kind: 'completed' });
    const next = await simulate(adapter, second);
    expect(next.outcome).toEqual({ kind: 'completed' });
    expect(ghostSaw).toEqual([expect.stringMatching(/^sync write: .*worker-0#0 is no longer running/), expect.stringMatching(/^sync readdir: .*worker-0#0 is no longer running/)]);
    expect(next.trace.map((e) => e.detail).join('\n')).not.toContain('ghost');
    const alone = await simulate(twoRuns().adapter, second);
    expect(next.traceHash).toBe(alone.traceHash);
    expect(next.trace.find((e) => e.op === 'fs.writeFile')?.detail).toContain('second.txt');
  });
});
