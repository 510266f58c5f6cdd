/** The temp folder is watched: steps that touch other tasks' temp files, and what this task leaves behind. */
import { describe, expect, test } from 'vitest';
import type { Env, JournalAdapter, Task } from '../../model/contract/contract.js';
import { judge } from '../../model/judge.js';
import { parseScenario } from '../scenario/scenario.js';
import { simulate } from '../simulate.js';

const FOREIGN = { 'tmp/task-10.a.part': "task-10's upload", 'tmp/task-2.index': "task-2's index", 'tmp/task-3.part': "task-3's chunk", 'tmp/task-4.part': "task-4's chunk" };
const scenario = (temp = true) =>
  parseScenario({ format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'a', body: 'body' }], ...(temp ? { temp: { dir: 'tmp', retentionMs: 0 } } : {}) }, files: { ...FOREIGN, 'notes.md': 'mine' } });
const journal = (run: (env: Env, task: Task) => Promise<void>): JournalAdapter => ({ name: 'temp-test', run, inspect: () => ({}) });

describe('the temp folder', () => {
  test("every way of touching another task's file is seen — who, where, how — and reading one is not", async () => {
    const r = await simulate(journal(async (env, task) => {
      expect(task.temp).toEqual({ dir: 'tmp', retentionMs: 0 });
      await env.fs.readFile('tmp/task-2.index', 'utf8');
      await env.fs.readdir('tmp');
      await env.fs.unlink('tmp/task-10.a.part');
      await env.fs.rename('tmp/task-2.index', 'moved.index');
      await env.fs.writeFile('tmp/mine.part', 'x');
      await env.fs.rename('tmp/mine.part', 'tmp/task-3.part');
      const handle = await env.fs.open('tmp/task-4.part', 'r+');
      await handle.close();
      await env.fs.writeFile('notes.md', 'still mine'); // outside the temp folder: not watched
    }), scenario());
    expect(r.temp?.touches.map((t) => [t.name, t.by, t.op])).toEqual([
      ['tmp/task-10.a.part', 'worker-0#0', 'unlinked it'],
      ['tmp/task-2.index', 'worker-0#0', 'renamed it away'],
      ['tmp/task-3.part', 'worker-0#0', 'replaced it by a rename'],
      ['tmp/task-4.part', 'worker-0#0', 'opened it for writing'],
    ]);
    for (const touch of r.temp?.touches ?? []) expect(r.trace[touch.seq]?.detail).toContain(touch.name === 'tmp/task-3.part' ? 'tmp/mine.part → tmp/task-3.part' : touch.name);
    expect(judge(r, ['cleanup-owned-only']).map((v) => v.key)).toEqual(['tmp/task-10.a.part', 'tmp/task-2.index', 'tmp/task-3.part', 'tmp/task-4.part']);
  });

  test("lists what this task left there, not other tasks' files, and the judge counts it only once the task is finished", async () => {
    const leave = journal(async (env) => {
      await env.fs.mkdir('tmp/sub', { recursive: true });
      await env.fs.writeFile('tmp/sub/chunk-1', 'x');
      await env.fs.writeFile('tmp/task-1.a.0-0.part', 'y');
      await env.fs.writeFile('tmp/gone', 'z');
      await env.fs.unlink('tmp/gone');
    });
    const r = await simulate(leave, scenario());
    expect(r.temp).toEqual({ dir: 'tmp', foreign: Object.keys(FOREIGN).sort(), touches: [], leftovers: ['tmp/sub/chunk-1', 'tmp/task-1.a.0-0.part'] });
    // The journal records nothing, so the task is not finished: its files may still be needed.
    expect(judge(r, ['convergence']).map((v) => v.actual)).toEqual(['nothing recorded for it']);
    const finished: JournalAdapter = { ...leave, inspect: () => ({ a: { kind: 'operation', history: ['authorized', 'dispatched', 'succeeded'], receipt: 'r' } }) };
    expect(judge(await simulate(finished, scenario()), ['convergence']).map((v) => v.actual)).toEqual(['2 left in tmp: tmp/sub/chunk-1, tmp/task-1.a.0-0.part']);
  });

  test('without task.temp nothing is watched', async () => {
    const r = await simulate(journal(async (env, task) => {
      expect(task.temp).toBeUndefined();
      await env.fs.unlink('tmp/task-10.a.part');
    }), scenario(false));
    expect(r.temp).toBeUndefined();
    expect(judge(r, ['cleanup-owned-only'])).toEqual([]);
  });
});
