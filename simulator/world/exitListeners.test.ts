/**
 * A journal's process.on('exit') and process.on('beforeExit') listeners under simulation: they run
 * as Node runs them — 'exit' on every end of the process but a crash (a natural end, process.exit
 * with its code, an uncaught error with code 1), synchronous work only; 'beforeExit' when run()
 * returns, and what it starts runs to its end first — never at a crash, and they die with their
 * incarnation.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import type { Env, JournalAdapter } from '../../model/contract/contract.js';
import { baseScenario } from '../../src/arbitraries.js';
import type { Fault } from '../scenario/scenario.js';
import { simulate } from '../simulate.js';

function journal(run: (env: Env) => Promise<void>): JournalAdapter {
  return { name: 'exit-listeners', run, inspect: () => ({}) };
}
const scenario = (faults: Fault[] = []) => ({ ...baseScenario([]), faults });

describe("a journal's exit listeners", () => {
  test("'exit' runs on a natural end with code 0, after 'beforeExit'; its synchronous write lands", async () => {
    const result = await simulate(
      journal(async () => {
        process.on('beforeExit', (code) => fs.appendFileSync('ends.log', `beforeExit ${code}\n`));
        process.on('exit', (code) => fs.appendFileSync('ends.log', `exit ${code}\n`));
        await fsp.writeFile('work.txt', 'done');
      }),
      scenario(),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(result.escapes).toEqual([]);
    const ops = result.trace.filter((t) => t.actor === 'supervisor').map((t) => `${t.op} ${t.detail}`);
    expect(ops).toContain("beforeExit worker-0#0: 1 'beforeExit' listener(s) run (code 0)");
    expect(ops).toContain("exit worker-0#0: 1 'exit' listener(s) run (code 0)");
    const appends = result.trace.filter((t) => t.op === 'fs.appendFileSync' && t.detail.includes(' write ')).map((t) => t.detail);
    expect(appends).toEqual(['ends.log write "beforeExit 0\\n"', 'ends.log write "exit 0\\n"']);
  });

  test("what a 'beforeExit' listener starts runs to its end before the process ends", async () => {
    const result = await simulate(
      journal(async () => {
        process.once('beforeExit', () => {
          void (async () => {
            await new Promise((resolve) => setTimeout(resolve, 50)); // allow-ambient: served by the world
            await fsp.writeFile('flushed.txt', 'late');
          })();
        });
      }),
      scenario(),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(result.trace.filter((t) => t.actor === 'worker-0').map((t) => t.op)).toEqual(['setTimeout', 'timer', 'fs.promises.writeFile', 'fs.promises.writeFile', 'fs.promises.writeFile']);
    expect(result.trace.at(-2)).toMatchObject({ actor: 'supervisor', op: 'exit', detail: 'worker-0#0 finished' });
  });

  test("process.exit(3) runs the 'exit' listeners with 3 (no 'beforeExit'); an uncaught error with 1", async () => {
    const codes: string[] = [];
    await simulate(
      journal(async (env) => {
        process.on('beforeExit', () => codes.push('beforeExit'));
        process.on('exit', (code) => codes.push(`exit ${code}`));
        if (env.incarnation === 0) process.exit(3);
        if (env.incarnation === 1) throw new TypeError('a bug');
      }),
      scenario(),
    );
    expect(codes).toEqual(['exit 3', 'exit 1', 'beforeExit', 'exit 0']);
  });

  test('a crash runs no listener, and the next incarnation does not inherit them', async () => {
    const seen: string[] = [];
    const result = await simulate(
      journal(async (env) => {
        if (env.incarnation === 0) process.on('exit', () => seen.push('exit of incarnation 0'));
        await fsp.writeFile('work.txt', String(env.incarnation));
      }),
      scenario([{ kind: 'crash', process: 0, incarnation: 0, step: 0, when: 'after', mode: 'keep-all' }]),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    expect(seen).toEqual([]);
    expect(result.trace.some((t) => t.op === 'exit' && t.detail.includes("'exit' listener"))).toBe(false);
  });
});
