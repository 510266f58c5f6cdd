/**
 * Differential conformance of node:fs as durasim serves it against real node:fs: one generated
 * program of Node calls — the promise API and its FileHandle (positional reads and writes,
 * truncate, stat, datasync), the synchronous API on file descriptors and paths, the callback API,
 * every open flag (and a numeric one), rm, rmdir, copyFile, access, mkdir -p's return value,
 * readdir with file types, and their error paths; metadata (chmod, chown, utimes, on paths and
 * handles, and the modes a umask of 022 gives), mkdtemp, opendir, cp, writev and readv, and Node's
 * own file streams — runs inside a simulation (the calls served on the virtual disk) and on real
 * node:fs in a temp folder (umask 022, as the simulated process has). Every value or error code,
 * and the final tree, must be identical (mkdtemp's six random characters aside).
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
  | { call: 'truncate'; path: string; length: number }
  | { call: 'chmod' | 'chmodSync'; path: string; mode: number }
  | { call: 'fh.chmod'; handle: number; mode: number }
  | { call: 'chown' | 'chownSync' | 'utimes' | 'utimesSync' | 'opendir' | 'opendirSync' | 'stream.read'; path: string }
  | { call: 'fh.chown' | 'fh.utimes'; handle: number }
  | { call: 'mkdtemp' | 'mkdtempSync'; prefix: string }
  | { call: 'cp' | 'cpSync'; from: string; to: string; recursive: boolean }
  | { call: 'writevSync' | 'fh.writev'; handle: number; data: string[]; position: number | null }
  | { call: 'readvSync' | 'fh.readv'; handle: number; lengths: number[]; position: number | null }
  | { call: 'stream.write'; path: string; data: string[]; flags: 'w' | 'a' }
  | { call: 'realpath' | 'realpathSync' | 'callback.realpath' | 'realpath.native' | 'realpathSync.native' | 'readlink' | 'readlinkSync'; path: string };

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
  // Modes that keep the owner's read, write and search (memfs checks permissions as for a non-root owner; real root bypasses them).
  { arbitrary: fc.record({ call: fc.constantFrom('chmod' as const, 'chmodSync' as const), path, mode: fc.constantFrom(0o700, 0o711, 0o750, 0o755, 0o775, 0o777) }), weight: 1 },
  { arbitrary: fc.record({ call: fc.constant('fh.chmod' as const), handle, mode: fc.constantFrom(0o700, 0o755, 0o777) }), weight: 1 },
  { arbitrary: fc.record({ call: fc.constantFrom('chown' as const, 'chownSync' as const, 'utimes' as const, 'utimesSync' as const, 'opendir' as const, 'opendirSync' as const, 'stream.read' as const), path }), weight: 3 },
  { arbitrary: fc.record({ call: fc.constantFrom('fh.chown' as const, 'fh.utimes' as const), handle }), weight: 1 },
  { arbitrary: fc.record({ call: fc.constantFrom('mkdtemp' as const, 'mkdtempSync' as const), prefix: fc.constantFrom('t-', 'd/t-', 'a/t-', 'x/t-') }), weight: 1 },
  { arbitrary: fc.record({ call: fc.constantFrom('cp' as const, 'cpSync' as const), from: path, to: path, recursive: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ call: fc.constantFrom('writevSync' as const, 'fh.writev' as const), handle, data: fc.array(data, { maxLength: 3 }), position }), weight: 2 },
  { arbitrary: fc.record({ call: fc.constantFrom('readvSync' as const, 'fh.readv' as const), handle, lengths: fc.array(fc.nat({ max: 4 }), { maxLength: 3 }), position }), weight: 2 },
  { arbitrary: fc.record({ call: fc.constant('stream.write' as const), path, data: fc.array(data, { maxLength: 3 }), flags: fc.constantFrom('w' as const, 'a' as const) }), weight: 2 },
  {
    arbitrary: fc.record({
      call: fc.constantFrom('realpath' as const, 'realpathSync' as const, 'callback.realpath' as const, 'realpath.native' as const, 'realpathSync.native' as const, 'readlink' as const, 'readlinkSync' as const),
      path: fc.oneof(path, fc.constantFrom('a/', 'd/', 'd/e/', 'd/../a', 'd/e/..', 'x/y', '.')),
    }),
    weight: 2,
  },
);

/** Calls whose error message is compared too (the root folder written as <root>), not only its code. */
const MESSAGE_COMPARED = new Set<Call['call']>(['realpath', 'realpathSync', 'callback.realpath', 'realpath.native', 'realpathSync.native', 'readlink', 'readlinkSync']);

/** Times utimes sets (in seconds), and how a stat shows a file's modification time: one of them, or another. */
const SET_ATIME_S = 1_000;
const SET_MTIME_S = 2_000;
const mtimeOf = (s: fs.Stats): string => (s.mtimeMs === SET_MTIME_S * 1000 ? 'mtime set' : 'mtime other');
/** mkdtemp's six characters are random on real node:fs: a result or a tree line shows them as XXXXXX. */
const unrandom = (text: string): string => text.replace(/t-[A-Za-z0-9]{6}/g, 't-XXXXXX');

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
  const statLine = (s: fs.Stats): string => `${s.isDirectory() ? `directory of ${s.size} bytes` : `file of ${s.size} bytes, ${s.nlink} link(s)`}, mode ${(s.mode & 0o7777).toString(8)}, ${mtimeOf(s)}`; // (blocks: a sparse file's holes are not modelled)
  const { uid, gid } = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
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
      case 'chmod':
        await fsp.chmod(at(c.path), c.mode);
        return 'ok';
      case 'chmodSync':
        fs.chmodSync(at(c.path), c.mode.toString(8));
        return 'ok';
      case 'fh.chmod': {
        const fh = fhOf(c.handle);
        return fh ? ((await fh.chmod(c.mode)), 'ok') : 'no handle';
      }
      case 'chown':
        await fsp.chown(at(c.path), uid, gid);
        return 'ok';
      case 'chownSync':
        fs.chownSync(at(c.path), uid, gid);
        return 'ok';
      case 'fh.chown': {
        const fh = fhOf(c.handle);
        return fh ? ((await fh.chown(uid, gid)), 'ok') : 'no handle';
      }
      case 'utimes':
        await fsp.utimes(at(c.path), SET_ATIME_S, SET_MTIME_S);
        return 'ok';
      case 'utimesSync':
        fs.utimesSync(at(c.path), new Date(SET_ATIME_S * 1000), new Date(SET_MTIME_S * 1000));
        return 'ok';
      case 'fh.utimes': {
        const fh = fhOf(c.handle);
        return fh ? ((await fh.utimes(SET_ATIME_S, SET_MTIME_S)), 'ok') : 'no handle';
      }
      case 'mkdtemp':
        return `made ${relative(root, await fsp.mkdtemp(at(c.prefix)))}`;
      case 'mkdtempSync':
        return `made ${relative(root, fs.mkdtempSync(at(c.prefix)))}`;
      case 'opendir': {
        const names: string[] = [];
        for await (const entry of await fsp.opendir(at(c.path))) names.push(`${entry.name}${entry.isDirectory() ? '/' : ''}`);
        return JSON.stringify(names.sort());
      }
      case 'opendirSync': {
        const dir = fs.opendirSync(at(c.path));
        const names: string[] = [];
        for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) names.push(`${entry.name}${entry.isDirectory() ? '/' : ''}`);
        dir.closeSync();
        return JSON.stringify(names.sort());
      }
      case 'cp':
        // Node's promise cp stats the source and the target at once: when both fail, which error wins is a race. Look at the source first.
        await fsp.lstat(at(c.from));
        await fsp.cp(at(c.from), at(c.to), { recursive: c.recursive });
        return 'ok';
      case 'cpSync':
        fs.cpSync(at(c.from), at(c.to), { recursive: c.recursive });
        return 'ok';
      case 'writevSync': {
        const fd = fdOf(c.handle);
        return fd === undefined ? 'no handle' : `${fs.writevSync(fd, c.data.map((d) => Buffer.from(d)), c.position ?? undefined)} written`;
      }
      case 'fh.writev': {
        const fh = fhOf(c.handle);
        return fh ? `${(await fh.writev(c.data.map((d) => Buffer.from(d)), c.position ?? undefined)).bytesWritten} written` : 'no handle';
      }
      case 'readvSync':
      case 'fh.readv': {
        const buffers = c.lengths.map((n) => Buffer.alloc(n));
        let read: number;
        if (c.call === 'readvSync') {
          const fd = fdOf(c.handle);
          if (fd === undefined) return 'no handle';
          read = fs.readvSync(fd, buffers, c.position ?? undefined);
        } else {
          const fh = fhOf(c.handle);
          if (!fh) return 'no handle';
          read = (await fh.readv(buffers, c.position ?? undefined)).bytesRead;
        }
        return `${read} read: ${JSON.stringify(buffers.map((b) => b.toString('utf8')))}`;
      }
      case 'stream.write': {
        const stream = fs.createWriteStream(at(c.path), { flags: c.flags });
        await new Promise<void>((resolve, reject) => {
          stream.on('error', reject);
          for (const chunk of c.data) stream.write(chunk);
          stream.end(() => resolve());
        });
        return 'ok';
      }
      case 'realpath':
        return relative(root, await fsp.realpath(at(c.path))) || '.';
      case 'realpathSync':
        return relative(root, fs.realpathSync(at(c.path))) || '.';
      case 'callback.realpath':
        return relative(root, await viaCallback<string>((done) => fs.realpath(at(c.path), done))) || '.';
      case 'realpath.native':
        return relative(root, await viaCallback<string>((done) => fs.realpath.native(at(c.path), done))) || '.';
      case 'realpathSync.native':
        return relative(root, fs.realpathSync.native(at(c.path))) || '.';
      case 'readlink':
        return await fsp.readlink(at(c.path));
      case 'readlinkSync':
        return fs.readlinkSync(at(c.path));
      case 'stream.read': {
        let text = '';
        for await (const chunk of fs.createReadStream(at(c.path), { encoding: 'utf8', highWaterMark: 3 })) text += chunk as string;
        return JSON.stringify(text);
      }
    }
  };
  for (const c of calls) {
    try {
      out.push(unrandom(`${JSON.stringify(c)} → ${await apply(c)}`));
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      out.push(`${JSON.stringify(c)} → ${MESSAGE_COMPARED.has(c.call) ? String(message).replaceAll(root, '<root>') : (code ?? String(error))}`);
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
      const stats = await fsp.stat(child);
      const mode = (stats.mode & 0o7777).toString(8);
      if (stats.isDirectory()) lines.push(unrandom(`${relative(root, child)}/ (mode ${mode})`), ...(await tree(child)));
      else lines.push(unrandom(`${relative(root, child)}: ${JSON.stringify(await fsp.readFile(child, 'utf8'))} (mode ${mode})`));
    }
    return lines;
  };
  out.push(...(await tree(root)).sort());
  return out;
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

async function onRealNode(calls: readonly Call[]): Promise<string[]> {
  const root = fs.mkdtempSync(join(tmpdir(), 'durasim-served-fs-'));
  roots.push(root);
  // The simulated process's umask is 022; the real one here may be another.
  const umask = process.umask(0o022);
  try {
    return await runCalls(root, calls);
  } finally {
    process.umask(umask);
  }
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
    ['rename of a missing source: ENOENT, whatever the target (ENOTDIR only where the target\'s folder is a file)', [{ call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'renameSync', from: 'b', to: 'a/d' }, { call: 'rename', from: 'b', to: 'd/e' }, { call: 'rename', from: 'd/b', to: 'a/b' }]],
    ['an empty write on a read-only handle: EBADF from writeSync, nothing from FileHandle.write and writev of no buffers', [{ call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'openSync', path: 'a', flags: 'r' }, { call: 'open', path: 'a', flags: 'r' }, { call: 'writeSync', handle: 0, data: '', position: null }, { call: 'fh.write', handle: 1, data: '', position: 0 }, { call: 'writevSync', handle: 0, data: [], position: null }, { call: 'writevSync', handle: 0, data: [''], position: null }, { call: 'fh.writev', handle: 1, data: [], position: null }]],
    ['a folder is 4096 bytes; files and folders are made 644 and 755 (umask 022), mkdtemp 700; chmod and utimes show', [{ call: 'mkdir', path: 'd', recursive: false }, { call: 'stat', path: 'd' }, { call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'chmod', path: 'a', mode: 0o700 }, { call: 'utimes', path: 'a' }, { call: 'statSync', path: 'a' }, { call: 'mkdtemp', prefix: 'd/t-' }]],
    ['cp: a file keeps its mode, a folder needs recursive, a folder onto a file is refused', [{ call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'chmod', path: 'a', mode: 0o755 }, { call: 'cp', from: 'a', to: 'd/e/b', recursive: false }, { call: 'cpSync', from: 'd', to: 'b', recursive: false }, { call: 'cpSync', from: 'd', to: 'b', recursive: true }, { call: 'cp', from: 'd', to: 'a', recursive: true }, { call: 'stream.write', path: 'b/e/b', data: ['hello', 'line\n'], flags: 'a' }, { call: 'stream.read', path: 'b/e/b' }, { call: 'opendirSync', path: 'b' }]],
    ['rm of a folder needs recursive; force forgives a missing path', [{ call: 'mkdir', path: 'd/e', recursive: true }, { call: 'rm', path: 'd', recursive: false, force: false }, { call: 'rm', path: 'd', recursive: true, force: false }, { call: 'rm', path: 'd', recursive: false, force: true }]],
  ] as [string, Call[]][])('%s', async (_name, calls) => {
    expect(await served(calls)).toEqual(await onRealNode(calls));
  });

  test.prop([fc.array(call, { minLength: 1, maxLength: 14 })], { numRuns: runs(2000), seed: seed(23) })('generated programs give identical results and trees', async (calls) => {
    expect(await served(calls)).toEqual(await onRealNode(calls));
  }, PROPERTY_TIMEOUT_MS);
});
