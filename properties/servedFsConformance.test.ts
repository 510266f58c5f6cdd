/**
 * Differential conformance of node:fs as durasim serves it against real node:fs: one generated
 * program of Node calls — the promise API and its FileHandle (positional reads and writes,
 * truncate, stat, datasync), the synchronous API on file descriptors and paths, the callback API,
 * every open flag (and a numeric one), rm, rmdir, copyFile, access, mkdir -p's return value,
 * readdir with file types, and their error paths — runs inside a simulation (the calls served on
 * the virtual disk) and on real node:fs in a temp folder. Every value or error code, and the
 * final tree, must be identical.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import type { JournalAdapter } from '../model/contract/contract.js';
import { baseScenario } from '../src/arbitraries.js';
import { WORK_DIR } from '../simulator/scenario/scenario.js';
import { simulate } from '../simulator/simulate.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

/** A name over NAME_MAX (256 bytes, 128 two-byte characters), alone and under folders: ENAMETOOLONG where the walk reaches it. */
const LONG = 'é'.repeat(128);
const PATHS = ['a', 'b', 'd', 'd/a', 'd/e', 'd/e/b', LONG, `d/${LONG}`, `a/${LONG}`] as const;
const FLAGS = ['r', 'r+', 'w', 'wx', 'w+', 'wx+', 'a', 'ax', 'a+', 'ax+', 'rs+', fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC] as const;
const DATA = ['x', 'hello', 'HI', '12345', 'line\n', ''] as const;

type Call =
  | { call: 'open'; path: string; flags: string | number }
  | { call: 'openSync'; path: string; flags: string | number }
  | { call: 'fh.write' | 'writeSync'; handle: number; data: string; position: number | null }
  | { call: 'fh.read' | 'readSync'; handle: number; length: number; position: number | null }
  | { call: 'fh.truncate' | 'ftruncateSync'; handle: number; length: number }
  | { call: 'fh.writeFile' | 'fh.appendFile'; handle: number; data: string }
  | { call: 'fh.readFile' | 'fh.stat' | 'fh.sync' | 'fh.datasync' | 'fh.close' | 'fstatSync' | 'fsyncSync' | 'closeSync'; handle: number }
  | { call: 'writeFile' | 'writeFileSync'; path: string; data: string; flag: 'w' | 'wx' | 'a' | 'ax' }
  | { call: 'appendFile' | 'callback.appendFile'; path: string; data: string }
  | { call: 'readFile' | 'readFileSync' | 'callback.readFile' | 'unlink' | 'unlinkSync' | 'readdir' | 'stat' | 'statSync' | 'lstat' | 'existsSync' | 'access' | 'rmdir'; path: string }
  | { call: 'rename' | 'renameSync' | 'link' | 'copyFile' | 'copyFileExcl'; from: string; to: string }
  | { call: 'mkdir' | 'mkdirSync'; path: string; recursive: boolean }
  | { call: 'rm'; path: string; recursive: boolean; force: boolean }
  | { call: 'truncate'; path: string; length: number };

const path = fc.constantFrom(...PATHS);
const data = fc.constantFrom(...DATA);
const handle = fc.nat({ max: 3 });
const position = fc.oneof(fc.constant(null), fc.nat({ max: 8 }));
const small = fc.nat({ max: 8 });
const call: fc.Arbitrary<Call> = fc.oneof(
  { arbitrary: fc.record({ call: fc.constantFrom('open' as const, 'openSync' as const), path, flags: fc.constantFrom(...FLAGS) }), weight: 5 },
  { arbitrary: fc.record({ call: fc.constantFrom('fh.write' as const, 'writeSync' as const), handle, data, position }), weight: 4 },
  { arbitrary: fc.record({ call: fc.constantFrom('fh.read' as const, 'readSync' as const), handle, length: small, position }), weight: 3 },
  { arbitrary: fc.record({ call: fc.constantFrom('fh.truncate' as const, 'ftruncateSync' as const), handle, length: small }), weight: 1 },
  { arbitrary: fc.record({ call: fc.constantFrom('fh.writeFile' as const, 'fh.appendFile' as const), handle, data }), weight: 2 },
  {
    arbitrary: fc.record({ call: fc.constantFrom('fh.readFile' as const, 'fh.stat' as const, 'fh.sync' as const, 'fh.datasync' as const, 'fh.close' as const, 'fstatSync' as const, 'fsyncSync' as const, 'closeSync' as const), handle }),
    weight: 4,
  },
  { arbitrary: fc.record({ call: fc.constantFrom('writeFile' as const, 'writeFileSync' as const), path, data, flag: fc.constantFrom('w' as const, 'wx' as const, 'a' as const, 'ax' as const) }), weight: 3 },
  { arbitrary: fc.record({ call: fc.constantFrom('appendFile' as const, 'callback.appendFile' as const), path, data }), weight: 2 },
  {
    arbitrary: fc.record({
      call: fc.constantFrom('readFile' as const, 'readFileSync' as const, 'callback.readFile' as const, 'unlink' as const, 'unlinkSync' as const, 'readdir' as const, 'stat' as const, 'statSync' as const, 'lstat' as const, 'existsSync' as const, 'access' as const, 'rmdir' as const),
      path,
    }),
    weight: 5,
  },
  { arbitrary: fc.record({ call: fc.constantFrom('rename' as const, 'renameSync' as const, 'link' as const, 'copyFile' as const, 'copyFileExcl' as const), from: path, to: path }), weight: 3 },
  { arbitrary: fc.record({ call: fc.constantFrom('mkdir' as const, 'mkdirSync' as const), path, recursive: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ call: fc.constant('rm' as const), path, recursive: fc.boolean(), force: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ call: fc.constant('truncate' as const), path, length: small }), weight: 1 },
);

type Handle = { kind: 'fh'; fh: fsp.FileHandle } | { kind: 'fd'; fd: number };

/** Runs `calls` with paths under `root`: one line per call (its value or its error code), then the final tree. */
async function runCalls(root: string, calls: readonly Call[]): Promise<string[]> {
  const at = (p: string): string => join(root, p);
  const handles: Handle[] = [];
  const out: string[] = [];
  const pick = (i: number): Handle | undefined => handles[i % Math.max(1, handles.length)];
  const fhOf = (i: number): fsp.FileHandle | undefined => {
    const h = pick(i);
    return h?.kind === 'fh' ? h.fh : undefined;
  };
  const fdOf = (i: number): number | undefined => {
    const h = pick(i);
    return h === undefined ? undefined : h.kind === 'fd' ? h.fd : h.fh.fd;
  };
  const statLine = (s: fs.Stats): string => (s.isDirectory() ? 'directory' : `file of ${s.size} bytes, ${s.nlink} link(s)`);
  const viaCallback = <T>(run: (done: (error: NodeJS.ErrnoException | null, value?: T) => void) => void): Promise<T> =>
    new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
  const apply = async (c: Call): Promise<string> => {
    switch (c.call) {
      case 'open':
        handles.push({ kind: 'fh', fh: await fsp.open(at(c.path), c.flags) });
        return `handle ${handles.length - 1}`;
      case 'openSync':
        handles.push({ kind: 'fd', fd: fs.openSync(at(c.path), c.flags) });
        return `handle ${handles.length - 1}`;
      case 'fh.write': {
        const fh = fhOf(c.handle);
        return fh ? `${(await fh.write(Buffer.from(c.data), 0, c.data.length, c.position)).bytesWritten} written` : 'no handle';
      }
      case 'writeSync': {
        const fd = fdOf(c.handle);
        return fd === undefined ? 'no handle' : `${fs.writeSync(fd, Buffer.from(c.data), 0, c.data.length, c.position)} written`;
      }
      case 'fh.read': {
        const fh = fhOf(c.handle);
        if (!fh) return 'no handle';
        const { bytesRead, buffer } = await fh.read(Buffer.alloc(c.length), 0, c.length, c.position);
        return JSON.stringify(buffer.subarray(0, bytesRead).toString('utf8'));
      }
      case 'readSync': {
        const fd = fdOf(c.handle);
        if (fd === undefined) return 'no handle';
        const buffer = Buffer.alloc(c.length);
        return JSON.stringify(buffer.subarray(0, fs.readSync(fd, buffer, 0, c.length, c.position)).toString('utf8'));
      }
      case 'fh.truncate':
        return fhOf(c.handle) ? ((await fhOf(c.handle)?.truncate(c.length)), 'ok') : 'no handle';
      case 'ftruncateSync': {
        const fd = fdOf(c.handle);
        return fd === undefined ? 'no handle' : (fs.ftruncateSync(fd, c.length), 'ok');
      }
      case 'fh.writeFile':
      case 'fh.appendFile': {
        const fh = fhOf(c.handle);
        if (!fh) return 'no handle';
        await (c.call === 'fh.writeFile' ? fh.writeFile(c.data) : fh.appendFile(c.data));
        return 'ok';
      }
      case 'fh.readFile': {
        const fh = fhOf(c.handle);
        return fh ? JSON.stringify(await fh.readFile('utf8')) : 'no handle';
      }
      case 'fh.stat': {
        const fh = fhOf(c.handle);
        return fh ? statLine(await fh.stat()) : 'no handle';
      }
      case 'fh.sync':
      case 'fh.datasync':
      case 'fh.close': {
        const fh = fhOf(c.handle);
        if (!fh) return 'no handle';
        await (c.call === 'fh.sync' ? fh.sync() : c.call === 'fh.datasync' ? fh.datasync() : fh.close());
        return 'ok';
      }
      case 'fstatSync':
      case 'fsyncSync':
      case 'closeSync': {
        const h = pick(c.handle);
        if (h?.kind !== 'fd') return 'no handle';
        if (c.call === 'fstatSync') return statLine(fs.fstatSync(h.fd));
        if (c.call === 'fsyncSync') fs.fsyncSync(h.fd);
        else fs.closeSync(h.fd);
        return 'ok';
      }
      case 'writeFile':
        await fsp.writeFile(at(c.path), c.data, { flag: c.flag });
        return 'ok';
      case 'writeFileSync':
        fs.writeFileSync(at(c.path), c.data, { flag: c.flag });
        return 'ok';
      case 'appendFile':
        await fsp.appendFile(at(c.path), c.data);
        return 'ok';
      case 'callback.appendFile':
        await viaCallback<void>((done) => fs.appendFile(at(c.path), c.data, done));
        return 'ok';
      case 'readFile':
        return JSON.stringify(await fsp.readFile(at(c.path), 'utf8'));
      case 'readFileSync':
        return JSON.stringify(fs.readFileSync(at(c.path), 'utf8'));
      case 'callback.readFile':
        return JSON.stringify(await viaCallback<string>((done) => fs.readFile(at(c.path), 'utf8', done)));
      case 'unlink':
        await fsp.unlink(at(c.path));
        return 'ok';
      case 'unlinkSync':
        fs.unlinkSync(at(c.path));
        return 'ok';
      case 'readdir':
        return JSON.stringify((await fsp.readdir(at(c.path), { withFileTypes: true })).map((d) => `${d.name}${d.isDirectory() ? '/' : ''}`).sort());
      case 'stat':
        return statLine(await fsp.stat(at(c.path)));
      case 'statSync':
        return statLine(fs.statSync(at(c.path)));
      case 'lstat':
        return statLine(await fsp.lstat(at(c.path)));
      case 'existsSync':
        return String(fs.existsSync(at(c.path)));
      case 'access':
        await fsp.access(at(c.path));
        return 'ok';
      case 'rmdir':
        await fsp.rmdir(at(c.path));
        return 'ok';
      case 'rename':
        await fsp.rename(at(c.from), at(c.to));
        return 'ok';
      case 'renameSync':
        fs.renameSync(at(c.from), at(c.to));
        return 'ok';
      case 'link':
        await fsp.link(at(c.from), at(c.to));
        return 'ok';
      case 'copyFile':
      case 'copyFileExcl':
        await fsp.copyFile(at(c.from), at(c.to), c.call === 'copyFileExcl' ? fs.constants.COPYFILE_EXCL : 0);
        return 'ok';
      case 'mkdir': {
        const first = await fsp.mkdir(at(c.path), { recursive: c.recursive });
        return first === undefined ? 'ok' : `created from ${relative(root, first)}`;
      }
      case 'mkdirSync': {
        const first = fs.mkdirSync(at(c.path), { recursive: c.recursive });
        return first === undefined ? 'ok' : `created from ${relative(root, first)}`;
      }
      case 'rm':
        await fsp.rm(at(c.path), { recursive: c.recursive, force: c.force });
        return 'ok';
      case 'truncate':
        await fsp.truncate(at(c.path), c.length);
        return 'ok';
    }
  };
  for (const c of calls) {
    try {
      out.push(`${JSON.stringify(c)} → ${await apply(c)}`);
    } catch (error) {
      out.push(`${JSON.stringify(c)} → ${(error as { code?: string }).code ?? String(error)}`);
    }
  }
  for (const h of handles) {
    if (h.kind === 'fh') await h.fh.close().catch(() => undefined);
    else
      try {
        fs.closeSync(h.fd);
      } catch {
        // closed by the program
      }
  }
  const tree = async (dir: string): Promise<string[]> => {
    const lines: string[] = [];
    for (const name of (await fsp.readdir(dir)).sort()) {
      const child = join(dir, name);
      if ((await fsp.stat(child)).isDirectory()) lines.push(`${relative(root, child)}/`, ...(await tree(child)));
      else lines.push(`${relative(root, child)}: ${JSON.stringify(await fsp.readFile(child, 'utf8'))}`);
    }
    return lines;
  };
  out.push(...(await tree(root)));
  return out;
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

function onRealNode(calls: readonly Call[]): Promise<string[]> {
  const root = fs.mkdtempSync(join(tmpdir(), 'durasim-served-fs-'));
  roots.push(root);
  return runCalls(root, calls);
}

async function served(calls: readonly Call[]): Promise<string[]> {
  let out: string[] = [];
  const journal: JournalAdapter = { name: 'served-fs-conformance', run: async () => void (out = await runCalls(WORK_DIR, calls)), inspect: () => ({}) };
  const result = await simulate(journal, { ...baseScenario([]), task: { id: 'fs', operations: [] } });
  expect(result.outcome).toEqual({ kind: 'completed' });
  expect(result.escapes).toEqual([]);
  return out;
}

describe('node:fs as durasim serves it behaves as real node:fs', () => {
  test.each([
    ['a positional write leaves the position where it was', [{ call: 'open', path: 'a', flags: 'w+' }, { call: 'fh.write', handle: 0, data: 'hello', position: null }, { call: 'fh.write', handle: 0, data: 'HI', position: 0 }, { call: 'fh.write', handle: 0, data: 'x', position: null }, { call: 'fh.readFile', handle: 0 }]],
    ['a write on an append handle goes to the end whatever position it names', [{ call: 'writeFile', path: 'a', data: '12345', flag: 'w' }, { call: 'openSync', path: 'a', flags: 'a+' }, { call: 'writeSync', handle: 0, data: 'HI', position: 0 }, { call: 'readSync', handle: 0, length: 8, position: 0 }]],
    ['mkdir -p says where it started creating', [{ call: 'mkdir', path: 'd/e', recursive: true }, { call: 'mkdirSync', path: 'd/e/b', recursive: true }, { call: 'mkdir', path: 'd', recursive: true }]],
    ['rm of a folder needs recursive; force forgives a missing path', [{ call: 'mkdir', path: 'd/e', recursive: true }, { call: 'rm', path: 'd', recursive: false, force: false }, { call: 'rm', path: 'd', recursive: true, force: false }, { call: 'rm', path: 'd', recursive: false, force: true }]],
  ] as [string, Call[]][])('%s', async (_name, calls) => {
    expect(await served(calls)).toEqual(await onRealNode(calls));
  });

  test.prop([fc.array(call, { minLength: 1, maxLength: 14 })], { numRuns: runs(2000), seed: seed(23) })('generated programs give identical results and trees', async (calls) => {
    expect(await served(calls)).toEqual(await onRealNode(calls));
  }, PROPERTY_TIMEOUT_MS);
});
