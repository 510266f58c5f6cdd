/**
 * Differential conformance of node:fs as durasim serves it against real node:fs: one generated
 * program of Node calls — the promise API and its FileHandle (positional reads and writes,
 * truncate, stat, datasync), the synchronous API on file descriptors and paths, the callback API,
 * every open flag (and a numeric one), rm, rmdir, copyFile, access, mkdir -p's return value,
 * readdir with file types, and their error paths (paths with a trailing slash among them); metadata (chmod, chown, utimes, on paths and
 * handles, and the modes a umask of 022 gives), mkdtemp, opendir, cp, writev and readv, and Node's
 * own file streams — runs inside a simulation (the calls served on the virtual disk) and on real
 * node:fs in a temp folder (umask 022, as the simulated process has). Every value or error code,
 * and the final tree, must be identical (mkdtemp's six random characters aside), but for the
 * differences fixtures/nodeLineDifferences.ts lists for the Node line running it, each recorded
 * and held to the list (none on Node 22 and 24, which the simulated world follows).
 */
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import { call, type Call } from './fixtures/servedFsCalls.js';
import { onRealNode, onRealNodeWithDifferences, removeRealRoots, served } from './fixtures/servedFsRunner.js';
import { differencesOn, NODE_LINE } from './fixtures/nodeLineDifferences.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

afterAll(removeRealRoots);

describe('node:fs as durasim serves it behaves as real node:fs', () => {
  test.each([
    ['a positional write leaves the position where it was', [{ call: 'open', path: 'a', flags: 'w+' }, { call: 'fh.write', handle: 0, data: 'hello', position: null }, { call: 'fh.write', handle: 0, data: 'HI', position: 0 }, { call: 'fh.write', handle: 0, data: 'x', position: null }, { call: 'fh.readFile', handle: 0 }]],
    ['a write on an append handle goes to the end whatever position it names', [{ call: 'writeFile', path: 'a', data: '12345', flag: 'w' }, { call: 'openSync', path: 'a', flags: 'a+' }, { call: 'writeSync', handle: 0, data: 'HI', position: 0 }, { call: 'readSync', handle: 0, length: 8, position: 0 }]],
    ['mkdir -p says where it started creating', [{ call: 'mkdir', path: 'd/e', recursive: true }, { call: 'mkdirSync', path: 'd/e/b', recursive: true }, { call: 'mkdir', path: 'd', recursive: true }]],
    ['rename of a missing source: ENOENT, whatever the target (ENOTDIR only where the target\'s folder is a file)', [{ call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'renameSync', from: 'b', to: 'a/d' }, { call: 'rename', from: 'b', to: 'd/e' }, { call: 'rename', from: 'd/b', to: 'a/b' }]],
    ['an empty write on a read-only handle: EBADF from writeSync, nothing from FileHandle.write and writev of no buffers', [{ call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'openSync', path: 'a', flags: 'r' }, { call: 'open', path: 'a', flags: 'r' }, { call: 'writeSync', handle: 0, data: '', position: null }, { call: 'fh.write', handle: 1, data: '', position: 0 }, { call: 'writevSync', handle: 0, data: [], position: null }, { call: 'writevSync', handle: 0, data: [''], position: null }, { call: 'fh.writev', handle: 1, data: [], position: null }]],
    ['a folder is 4096 bytes; files and folders are made 644 and 755 (umask 022), mkdtemp 700; chmod and utimes show', [{ call: 'mkdir', path: 'd', recursive: false }, { call: 'stat', path: 'd' }, { call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'chmod', path: 'a', mode: 0o700 }, { call: 'utimes', path: 'a' }, { call: 'statSync', path: 'a' }, { call: 'mkdtemp', prefix: 'd/t-' }]],
    ['cp: a file keeps its mode, a folder needs recursive, a folder onto a file is refused', [{ call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'chmod', path: 'a', mode: 0o755 }, { call: 'cp', from: 'a', to: 'd/e/b', recursive: false }, { call: 'cpSync', from: 'd', to: 'b', recursive: false }, { call: 'cpSync', from: 'd', to: 'b', recursive: true }, { call: 'cp', from: 'd', to: 'a', recursive: true }, { call: 'stream.write', path: 'b/e/b', data: ['hello', 'line\n'], flags: 'a' }, { call: 'stream.read', path: 'b/e/b' }, { call: 'opendirSync', path: 'b' }]],
    ['a trailing slash asks for a folder: creating there is EISDIR, opening a file there ENOTDIR, a stream\'s open too', [{ call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'open', path: 'b/', flags: 'w' }, { call: 'open', path: 'a/', flags: 'w' }, { call: 'open', path: 'a/', flags: 'r' }, { call: 'openSync', path: 'a/', flags: 'r+' }, { call: 'writeFile', path: 'b/', data: 'y', flag: 'a' }, { call: 'stream.write', path: 'c/', data: ['x'], flags: 'w' }, { call: 'mkdir', path: 'd', recursive: false }, { call: 'open', path: 'd/', flags: 'r' }]],
    ['a trailing slash on a lookup asks for a folder too: a file there is ENOTDIR (rename\'s target too), link\'s missing target ENOENT, copyFile\'s EISDIR, mkdir -p ENOTDIR, existsSync false', [{ call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'mkdir', path: 'd', recursive: false }, { call: 'stat', path: 'a/' }, { call: 'lstat', path: 'a/' }, { call: 'access', path: 'a/' }, { call: 'existsSync', path: 'a/' }, { call: 'readFile', path: 'a/' }, { call: 'truncate', path: 'a/', length: 0 }, { call: 'unlink', path: 'a/' }, { call: 'rename', from: 'a/', to: 'b' }, { call: 'rename', from: 'a', to: 'b/' }, { call: 'link', from: 'a', to: 'b/' }, { call: 'copyFile', from: 'a', to: 'b/' }, { call: 'mkdir', path: 'a/', recursive: true }, { call: 'chmod', path: 'a/', mode: 0o700 }, { call: 'rm', path: 'a/', recursive: false, force: true }, { call: 'cp', from: 'a', to: 'b/', recursive: false }, { call: 'stat', path: 'd/' }, { call: 'rename', from: 'd/', to: 'b/' }]],
    ['rm of a folder needs recursive; force forgives a missing path', [{ call: 'mkdir', path: 'd/e', recursive: true }, { call: 'rm', path: 'd', recursive: false, force: false }, { call: 'rm', path: 'd', recursive: true, force: false }, { call: 'rm', path: 'd', recursive: false, force: true }]],
  ] as [string, Call[]][])('%s', async (_name, calls) => {
    expect(await served(calls)).toEqual(await onRealNode(calls));
  });

  test("cpSync checks its pair as Node 22 and 24 do (a folder without recursive fails before making anything; a file into itself is a copy into itself); Node 20's differences are the listed ones, exactly", async () => {
    const calls: Call[] = [{ call: 'mkdir', path: 'd', recursive: false }, { call: 'writeFile', path: 'a', data: 'x', flag: 'w' }, { call: 'cpSync', from: 'd', to: 'b/e', recursive: false }, { call: 'cpSync', from: 'd', to: 'a/x', recursive: false }, { call: 'cpSync', from: 'd', to: 'a/', recursive: false }, { call: 'cpSync', from: 'd', to: 'd/e/b', recursive: false }, { call: 'cpSync', from: 'a', to: 'a/x', recursive: false }, { call: 'cp', from: 'd', to: 'e/b', recursive: false }, { call: 'stat', path: 'b' }];
    const real = await onRealNodeWithDifferences(calls);
    expect(await served(calls)).toEqual(real.lines);
    expect(real.differences).toEqual(NODE_LINE === 20 ? ['cpSync-folder-parent-made', 'cpSync-target-unreadable', 'cpSync-target-unreadable', 'cpSync-target-unreadable'] : []);
    expect(real.differences.every((id) => differencesOn(NODE_LINE).includes(id))).toBe(true);
  });

  test.prop([fc.array(call, { minLength: 1, maxLength: 14 })], { numRuns: runs(2000), seed: seed(23) })('generated programs give identical results and trees', async (calls) => {
    expect(await served(calls)).toEqual(await onRealNode(calls));
  }, PROPERTY_TIMEOUT_MS);
});
