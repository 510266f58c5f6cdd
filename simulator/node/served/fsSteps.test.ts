/**
 * Node's whole-file calls are the steps Node makes (format 2): a kill between them leaves what a
 * SIGKILL leaves on Linux. The differential half kills real Node at the system call that starts
 * each step (strace's fault injection: SIGKILL on entering openat, write or copy_file_range, close
 * of the target) and demands the same file the simulated kill before that step leaves.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { baseScenario } from '../../../src/arbitraries.js';
import type { Env, JournalAdapter, Task } from '../../../model/contract/contract.js';
import type { Fault, Scenario } from '../../scenario/scenario.js';
import { simulate } from '../../simulate.js';

type Form = 'promise' | 'callback' | 'sync';
type Call = 'writeFile' | 'appendFile' | 'copyFile';
const FORMS: Form[] = ['promise', 'callback', 'sync'];
const CALLS: Call[] = ['writeFile', 'appendFile', 'copyFile'];
/** The step a kill lands before, and the system call on the target that starts it in real Node. */
const POINTS = [
  { step: 'open', syscall: 'openat' },
  { step: 'write', syscall: 'write,copy_file_range,sendfile' },
  { step: 'close', syscall: 'close' },
] as const;
const OLD = 'old text';
const NEW = 'new text!';
const SOURCE = 'copied bytes';

/** The call as a journal makes it, in one of the three forms. */
async function make(call: Call, form: Form, nodeFs: typeof fs, nodeFsp: typeof fsp, text: string): Promise<void> {
  const args: [string, string] = call === 'copyFile' ? ['source.txt', 'state.json'] : ['state.json', text];
  if (form === 'sync') return void (nodeFs[`${call}Sync`] as (a: string, b: string) => void)(...args);
  if (form === 'promise') return (nodeFsp[call] as (a: string, b: string) => Promise<void>)(...args);
  await new Promise<void>((resolve, reject) => (nodeFs[call] as (a: string, b: string, cb: (e: unknown) => void) => void)(...args, (e) => (e ? reject(e) : resolve())));
}

/** Incarnation 0 makes the call; incarnation 1 reads what the kill left. */
function journal(call: Call, form: Form, seen: string[]): JournalAdapter {
  let runs = 0;
  return {
    name: 'whole-file',
    run: async (_env: Env, _task: Task) => {
      if (runs++ === 0) await make(call, form, fs, fsp, NEW);
      else seen.push(fs.readFileSync('state.json', 'utf8'));
    },
    inspect: () => ({}),
  };
}

const scenarioOf = (faults: Fault[], version = 2): Scenario => ({
  ...baseScenario([{ kind: 'publish', key: 'a', body: 'body' }]),
  version,
  files: { 'state.json': OLD, 'source.txt': SOURCE },
  faults,
});

async function simulatedKill(call: Call, form: Form, step: number): Promise<{ left: string | undefined; ops: string[] }> {
  const seen: string[] = [];
  const result = await simulate(journal(call, form, seen), scenarioOf([{ kind: 'crash', process: 0, incarnation: 0, step, when: 'before', mode: 'keep-all' }]));
  expect(result.escapes).toEqual([]);
  const ops = result.trace.filter((e) => e.actor === 'worker-0' && e.incarnation === 0 && e.step !== undefined).map((e) => `${e.op} ${e.detail}`);
  return { left: seen[0], ops };
}

const haveStrace = spawnSync('strace', ['-V']).status === 0;

/** Real Node makes the call under strace, SIGKILLed on entering `syscall` on the target; what the file then holds. */
function realKill(call: Call, form: Form, syscall: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'durasim-fssteps-'));
  writeFileSync(join(dir, 'state.json'), OLD);
  writeFileSync(join(dir, 'source.txt'), SOURCE);
  const child = join(dir, 'child.mjs');
  writeFileSync(
    child,
    `import * as fs from 'node:fs';\nimport * as fsp from 'node:fs/promises';\nconst make = ${make.toString()};\nawait make(${JSON.stringify(call)}, ${JSON.stringify(form)}, fs, fsp, ${JSON.stringify(NEW)});\n`,
  );
  const run = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', '-P', 'state.json', '-P', join(dir, 'state.json'), '-e', `inject=${syscall}:signal=KILL:when=1`, process.execPath, child], { cwd: dir, encoding: 'utf8' });
  expect(run.signal ?? run.status, `${call} ${form} at ${syscall}: ${run.stderr}`).toBe('SIGKILL');
  return readFileSync(join(dir, 'state.json'), 'utf8');
}

describe('whole-file calls are open, write, close (scenario format 2)', () => {
  test.each(CALLS.flatMap((call) => FORMS.map((form) => [call, form] as const)))('%s, %s form: three steps, each a place a kill can land', async (call, form) => {
    const { ops } = await simulatedKill(call, form, 99);
    const api = form === 'sync' ? `fs.${call}Sync` : form === 'promise' ? `fs.promises.${call}` : `fs.${call}`;
    const target = call === 'copyFile' ? 'source.txt → state.json' : 'state.json';
    const write = call === 'copyFile' ? `${target} copy` : `${target} write "${NEW}"`;
    expect(ops).toEqual([`${api} ${target} open${call === 'copyFile' ? '' : call === 'writeFile' ? ' w' : ' a'}`, `${api} ${write}`, `${api} ${target} close`]);
    const expected = { open: OLD, write: call === 'appendFile' ? OLD : '', close: call === 'writeFile' ? NEW : call === 'appendFile' ? OLD + NEW : SOURCE };
    for (const [i, point] of POINTS.entries()) expect((await simulatedKill(call, form, i)).left, `killed before ${point.step}`).toBe(expected[point.step]);
  });

  test("env.fs.writeFile is the same three steps (env.fs.appendFile stays one: its open of an existing file changes nothing)", async () => {
    const seen: string[] = [];
    let runs = 0;
    const adapter: JournalAdapter = {
      name: 'env-whole-file',
      run: async (env) => {
        if (runs++ > 0) return void seen.push(await env.fs.readFile('state.json', 'utf8'));
        await env.fs.appendFile('log.txt', 'line\n');
        await env.fs.writeFile('state.json', NEW);
      },
      inspect: () => ({}),
    };
    const result = await simulate(adapter, scenarioOf([{ kind: 'crash', process: 0, incarnation: 0, step: 2, when: 'before', mode: 'keep-all' }]));
    expect(result.trace.filter((e) => e.actor === 'worker-0' && e.incarnation === 0 && e.step !== undefined).map((e) => `${e.op} ${e.detail}`)).toEqual(['fs.appendFile log.txt "line\\n"', 'fs.writeFile state.json open w', `fs.writeFile state.json write "${NEW}"`]);
    expect(seen).toEqual(['']);
  });

  test('a format 1 scenario keeps each call one step, as it replays', async () => {
    const seen: string[] = [];
    const result = await simulate(journal('writeFile', 'promise', seen), scenarioOf([{ kind: 'crash', process: 0, incarnation: 0, step: 0, when: 'after', mode: 'keep-all' }], 1));
    expect(result.trace.filter((e) => e.actor === 'worker-0' && e.incarnation === 0 && e.step !== undefined).map((e) => `${e.op} ${e.detail}`)).toEqual([`fs.promises.writeFile state.json "${NEW}"`]);
    expect(seen).toEqual([NEW]);
  });

  test('a failed write still closes the file, then the call fails with the write error; the file is left empty', async () => {
    const outcomes: string[] = [];
    let runs = 0;
    const adapter: JournalAdapter = {
      name: 'whole-file-eio',
      run: async () => {
        if (runs++ > 0) return;
        await fsp.writeFile('state.json', NEW).then(() => outcomes.push('resolved'), (e: NodeJS.ErrnoException) => outcomes.push(`${e.code} ${e.syscall}`));
        outcomes.push(JSON.stringify(fs.readFileSync('state.json', 'utf8')));
      },
      inspect: () => ({}),
    };
    const result = await simulate(adapter, scenarioOf([{ kind: 'io-error', process: 0, incarnation: 0, step: 1, error: 'EIO' }]));
    expect(outcomes).toEqual(['EIO write', '""']);
    expect(result.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined).map((e) => e.detail)).toEqual(['state.json open w', `state.json write "${NEW}"`, 'EIO', 'state.json close', 'state.json']);
  });

  describe.skipIf(!haveStrace)('real Node, SIGKILLed at the system call that starts each step', () => {
    test.each(CALLS.flatMap((call) => FORMS.map((form) => [call, form] as const)))('%s, %s form: the file a kill leaves is the simulated one', async (call, form) => {
      for (const [i, point] of POINTS.entries()) {
        const real = realKill(call, form, point.syscall);
        expect((await simulatedKill(call, form, i)).left, `killed before ${point.step} (real: at ${point.syscall})`).toBe(real);
      }
    });
  });
});
