/**
 * Differential conformance of the simulated file system against real node:fs: generated
 * sequences of file operations (opens with every flag, reads and writes through handles and paths,
 * renames, links, unlinks, mkdir, readdir, stat, fsync, close, and their error paths) run through
 * the production Env (`realEnv`, node:fs/promises in a temp folder) and through the simulated one,
 * without crashes. Every result — value or error code — and the final tree must be identical.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import type { Env, FileHandle, JournalAdapter } from '../model/contract/contract.js';
import { realEnv } from '../src/realEnv.js';
import { simulate } from '../simulator/simulate.js';
import { baseScenario } from '../src/arbitraries.js';
import { hangGuard, runs, seed } from './budgets.js';

/** A name over NAME_MAX (256 bytes), alone and under a folder: ENAMETOOLONG where the walk reaches it. */
const LONG = 'n'.repeat(256);
const PATHS = ['a', 'b', 'd', 'd/a', 'd/e', 'd/e/b', LONG, `d/${LONG}`, `a/${LONG}`, `nope/${LONG}`] as const;
const FLAGS = ['r', 'r+', 'w', 'wx', 'a', 'ax'] as const;
const DATA = ['x', 'hello', 'HI', '12345', 'line\n', ''] as const;

type FsOp =
  | { op: 'open'; path: string; flags: (typeof FLAGS)[number] }
  | { op: 'fh.appendFile' | 'fh.writeFile'; handle: number; data: string }
  | { op: 'fh.readFile' | 'fh.sync' | 'fh.close'; handle: number }
  | { op: 'writeFile'; path: string; data: string; flag: 'w' | 'wx' }
  | { op: 'appendFile'; path: string; data: string }
  | { op: 'readFile' | 'unlink' | 'readdir' | 'stat'; path: string }
  | { op: 'rename' | 'link'; from: string; to: string }
  | { op: 'mkdir'; path: string; recursive: boolean };

const path = fc.constantFrom(...PATHS);
const data = fc.constantFrom(...DATA);
const handle = fc.nat({ max: 3 });
const fsOp: fc.Arbitrary<FsOp> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('open' as const), path, flags: fc.constantFrom(...FLAGS) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constantFrom('fh.appendFile' as const, 'fh.writeFile' as const), handle, data }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constantFrom('fh.readFile' as const, 'fh.sync' as const, 'fh.close' as const), handle }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('writeFile' as const), path, data, flag: fc.constantFrom('w' as const, 'wx' as const) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('appendFile' as const), path, data }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constantFrom('readFile' as const, 'unlink' as const, 'readdir' as const, 'stat' as const), path }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constantFrom('rename' as const, 'link' as const), from: path, to: path }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('mkdir' as const), path, recursive: fc.boolean() }), weight: 2 },
);

const text = (bytes: Uint8Array | string): string => (typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'));

/** Runs `ops` against `env`; returns one line per operation (its value or its error code), then the final tree. */
async function runOps(env: Env, ops: readonly FsOp[]): Promise<string[]> {
  const handles: FileHandle[] = [];
  const out: string[] = [];
  const pick = (i: number): FileHandle | undefined => handles[i % Math.max(1, handles.length)];
  for (const op of ops) {
    try {
      out.push(`${JSON.stringify(op)} → ${await apply(env, op, pick, handles)}`);
    } catch (error) {
      out.push(`${JSON.stringify(op)} → ${(error as { code?: string }).code ?? String(error)}`);
    }
  }
  for (const fh of handles) await fh.close().catch(() => undefined);
  out.push(...(await tree(env, '.')));
  return out;
}

async function apply(env: Env, op: FsOp, pick: (i: number) => FileHandle | undefined, handles: FileHandle[]): Promise<string> {
  switch (op.op) {
    case 'open':
      handles.push(await env.fs.open(op.path, op.flags));
      return `handle ${handles.length - 1}`;
    case 'fh.appendFile':
    case 'fh.writeFile':
    case 'fh.readFile':
    case 'fh.sync':
    case 'fh.close': {
      const fh = pick(op.handle);
      if (!fh) return 'no handle';
      if (op.op === 'fh.appendFile') await fh.appendFile(op.data);
      else if (op.op === 'fh.writeFile') await fh.writeFile(op.data);
      else if (op.op === 'fh.readFile') return JSON.stringify(text(await fh.readFile()));
      else if (op.op === 'fh.sync') await fh.sync();
      else await fh.close();
      return 'ok';
    }
    case 'writeFile':
      await env.fs.writeFile(op.path, op.data, { flag: op.flag });
      return 'ok';
    case 'appendFile':
      await env.fs.appendFile(op.path, op.data);
      return 'ok';
    case 'readFile':
      return JSON.stringify(text(await env.fs.readFile(op.path)));
    case 'unlink':
      await env.fs.unlink(op.path);
      return 'ok';
    case 'readdir':
      return JSON.stringify(await env.fs.readdir(op.path));
    case 'stat': {
      const stats = await env.fs.stat(op.path);
      return stats.isDirectory() ? 'directory' : `file of ${stats.size} bytes`;
    }
    case 'rename':
      await env.fs.rename(op.from, op.to);
      return 'ok';
    case 'link':
      await env.fs.link(op.from, op.to);
      return 'ok';
    case 'mkdir':
      await env.fs.mkdir(op.path, { recursive: op.recursive });
      return 'ok';
  }
}

async function tree(env: Env, dir: string): Promise<string[]> {
  const lines: string[] = [];
  for (const name of await env.fs.readdir(dir)) {
    const child = dir === '.' ? name : `${dir}/${name}`;
    if ((await env.fs.stat(child)).isDirectory()) lines.push(`${child}/`, ...(await tree(env, child)));
    else lines.push(`${child}: ${JSON.stringify(await env.fs.readFile(child, 'utf8'))}`);
  }
  return lines;
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function onRealNode(ops: readonly FsOp[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'durasim-fs-'));
  roots.push(dir);
  return runOps(realEnv({ dir }), ops);
}

async function simulated(ops: readonly FsOp[]): Promise<string[]> {
  let out: string[] = [];
  const journal: JournalAdapter = { name: 'fs-conformance', run: async (env) => { out = await runOps(env, ops); }, inspect: () => ({}) };
  const result = await simulate(journal, { ...baseScenario([]), task: { id: 'fs', operations: [] } });
  expect(result.outcome).toEqual({ kind: 'completed' });
  return out;
}

describe('the simulated file system behaves as node:fs', () => {
  test.each([
    ['two writeFile calls on one handle write one after the other', [{ op: 'open', path: 'a', flags: 'w' }, { op: 'fh.writeFile', handle: 0, data: 'aaaa' }, { op: 'fh.writeFile', handle: 0, data: 'b' }]],
    ["writeFile through an r+ handle overwrites in place, without truncating", [{ op: 'writeFile', path: 'a', data: 'Hello world', flag: 'w' }, { op: 'open', path: 'a', flags: 'r+' }, { op: 'fh.writeFile', handle: 0, data: 'HI' }]],
    ['readFile after a write on the same handle reads from the position', [{ op: 'writeFile', path: 'a', data: '12345', flag: 'w' }, { op: 'open', path: 'a', flags: 'r+' }, { op: 'fh.writeFile', handle: 0, data: 'ab' }, { op: 'fh.readFile', handle: 0 }]],
    ['readFile twice on one handle: everything, then nothing', [{ op: 'writeFile', path: 'a', data: '12345', flag: 'w' }, { op: 'open', path: 'a', flags: 'r' }, { op: 'fh.readFile', handle: 0 }, { op: 'fh.readFile', handle: 0 }]],
  ] as [string, FsOp[]][])('%s', async (_name, ops) => {
    expect(await simulated(ops)).toEqual(await onRealNode(ops));
  });

  // Real files with fsync, where the disk is shared: its guard grows with its runs (2 ms each idle, 500 allowed).
  test.prop([fc.array(fsOp, { minLength: 1, maxLength: 14 })], { numRuns: runs(2000), seed: seed(11) })('generated sequences give identical results and trees', async (ops) => {
    expect(await simulated(ops)).toEqual(await onRealNode(ops));
  }, hangGuard(runs(2000), 500));
});
