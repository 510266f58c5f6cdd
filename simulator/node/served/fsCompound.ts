/**
 * node:fs's calls that are several system calls under one name, each run as one operation on the
 * disk (fsSteps.ts splits the whole-file ones into Node's steps): copyFile as libuv makes it, cp as
 * Node walks it (cpSync of a folder without `recursive` as Node 22 and 24 check it, from scenario
 * format 3), mkdtemp with its name drawn from the scenario.
 */
import { posix } from 'node:path';
import type { Disk, FileStats } from '../../disk/disk.js';
import { ioError } from '../../disk/ioError.js';
import { optionOf, pathOf } from './fsArgs.js';
import { written, type ServeContext } from './serveContext.js';

/** stat(2) of a path; with { throwIfNoEntry: false }, undefined for a missing one (Node's option). */
export function stat(disk: Disk, path: unknown, options: unknown, follow: boolean): FileStats | undefined {
  try {
    return disk.statOf(pathOf(path), follow);
  } catch (error) {
    if (!optionOf(options, 'throwIfNoEntry', true) && (error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** stat(2) of a path, undefined for one that cannot be stat'ed, whatever the error. */
function statOrNone(disk: Disk, path: string): FileStats | undefined {
  try {
    return disk.statOf(path, true);
  } catch {
    return undefined;
  }
}

/**
 * copyFile as libuv does it: the source is opened, then the target (created, or EEXIST under
 * COPYFILE_EXCL; EISDIR on a folder); one file under two names is left alone; a folder as source
 * fails with EISDIR and takes the target with it; else the target's bytes are replaced.
 */
export function copyFile(ctx: ServeContext, from: string, to: string, exclusive: boolean): void {
  const disk = ctx.world.disk;
  const [source, target] = [disk.resolve(from), disk.resolve(to)];
  const sourceStats = disk.statOf(source);
  if (exclusive && disk.exists(target)) throw ioError('EEXIST', 'copyfile', source, target);
  if (disk.exists(target) && disk.statOf(target).isDirectory()) throw ioError('EISDIR', 'copyfile', source, target);
  if (disk.exists(target) && disk.statOf(target).ino === sourceStats.ino) return;
  if (sourceStats.isDirectory()) {
    const opened = disk.openFile(target, 'w', ctx.proc.pid);
    disk.handleClose(opened.fd);
    disk.unlink(target);
    throw ioError('EISDIR', 'copyfile', source, target);
  }
  disk.writeWhole(target, written(ctx, disk.readFile(source)), 'w', ctx.proc.pid);
}

const SUFFIX_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** mkdtemp's name for a draw of the scenario (in [0, 1)), at its `attempt`-th try: the prefix and six characters. */
export function mkdtempName(prefix: string, draw: number, attempt: number): string {
  let n = Math.floor(draw * SUFFIX_CHARS.length ** 6) + attempt;
  let suffix = '';
  for (let i = 0; i < 6; i++, n = Math.floor(n / SUFFIX_CHARS.length)) suffix = SUFFIX_CHARS[n % SUFFIX_CHARS.length] + suffix;
  return `${prefix}${suffix}`;
}

/** How many names mkdtemp tries before it gives up (EEXIST). */
export const MKDTEMP_ATTEMPTS = 1000;

/**
 * mkdtemp(3): the prefix and six characters drawn from the scenario's random draws (as the served random
 * draws are); a name already taken is passed over for the next one, as libuv tries again.
 */
export function mkdtemp(ctx: ServeContext, prefix: string): string {
  const draw = ctx.world.scenario.random[ctx.world.randomDraws++] ?? 0;
  for (let attempt = 0; attempt < MKDTEMP_ATTEMPTS; attempt++) {
    const path = mkdtempName(prefix, draw, attempt);
    if (ctx.world.disk.exists(path)) continue;
    ctx.world.disk.mkdir(path, false, 0o700); // mkdtemp(3) makes it 0700
    return path;
  }
  throw ioError('EEXIST', 'mkdtemp', ctx.world.disk.resolve(`${prefix}XXXXXX`));
}

/** An error of Node's cp, in its shape: ERR_FS_CP_* (or ERR_FS_EISDIR) with the errno of the condition. */
function cpError(code: string, errno: number, name: string, what: string, path: string): Error {
  return Object.assign(new Error(`${what}: cp returned ${name} (${what}) ${path}`), { code, errno, syscall: 'cp', path });
}

/**
 * The first scenario format whose cpSync checks its paths as Node 22 and 24 do (their C++
 * cpSyncCheckPaths, before anything is made): a target that cannot be stat'ed (under a file, a
 * file named with a trailing slash, a name too long) is no target; a target whose folder is the
 * source itself is a copy into itself, whatever the source; ERR_FS_EISDIR for a folder without
 * `recursive` comes before the target's parent is made. Node 20's JavaScript made the parent first
 * and let the target's stat error stand; formats 1 and 2 replay that way. cp and fs.promises.cp run
 * Node's JavaScript on every line, as Node 20's cpSync did.
 */
export const CP_SYNC_CHECKS_FIRST_VERSION = 3;

/** std::filesystem's parent_path on POSIX, on a path as given: '' for a bare name, '/' for '/x', '/w/d' for '/w/d/'. */
function parentPath(path: string): string {
  if (/^\/*$/.test(path)) return path;
  if (path.endsWith('/')) return path.replace(/\/+$/, '');
  const at = path.lastIndexOf('/');
  if (at < 0) return '';
  return path.slice(0, at).replace(/\/+$/, '') || '/';
}

/** The same file or folder under both names (std::filesystem::equivalent): undefined when either cannot be stat'ed. */
function sameNode(disk: Disk, a: string, b: string): boolean | undefined {
  const [x, y] = [statOrNone(disk, a), statOrNone(disk, b)];
  return x === undefined || y === undefined ? undefined : x.ino === y.ino;
}

/**
 * Node 22 and 24's check of cpSync's pair, on the paths as the caller gave them and resolved: the
 * source's stat (its error stands), the target's (any error: no target), the same file, a folder
 * onto a file or back, a folder into itself (by name; and, as Node's walk up the target's folders
 * does, a target whose folder is the source), then a folder without `recursive`.
 */
function cpSyncCheck(disk: Disk, from: string, to: string, sourceStats: FileStats, recursive: boolean): void {
  const [source, target] = [disk.resolve(from), disk.resolve(to)];
  const targetStats = statOrNone(disk, to);
  if (targetStats !== undefined) {
    if (targetStats.ino === sourceStats.ino) throw cpError('ERR_FS_CP_EINVAL', 22, 'EINVAL', 'src and dest cannot be the same', target);
    if (sourceStats.isDirectory() && !targetStats.isDirectory()) throw cpError('ERR_FS_CP_DIR_TO_NON_DIR', 21, 'EISDIR', `cannot overwrite non-directory ${target} with directory ${source}`, target);
    if (!sourceStats.isDirectory() && targetStats.isDirectory()) throw cpError('ERR_FS_CP_NON_DIR_TO_DIR', 20, 'ENOTDIR', `cannot overwrite directory ${target} with non-directory ${source}`, target);
  }
  const intoItself = (): Error => cpError('ERR_FS_CP_EINVAL', 22, 'EINVAL', `cannot copy ${source} to a subdirectory of self ${target}`, target);
  // By name: the target as given starts with the source as given and a slash (and, to stay out of a copy into itself, the resolved ones).
  if (sourceStats.isDirectory() && (to.startsWith(from.endsWith('/') ? from : `${from}/`) || target.startsWith(`${source}/`))) throw intoItself();
  // Node's walk up the target's folders looks, at each, whether the target's own folder is the source.
  const [sourceParent, targetParent] = [parentPath(from), parentPath(to)];
  if (sourceParent !== targetParent && parentPath(targetParent) !== '' && parentPath(targetParent) !== targetParent && sameNode(disk, from, targetParent) === true) throw intoItself();
  if (sourceStats.isDirectory() && !recursive) throw cpError('ERR_FS_EISDIR', 21, 'EISDIR', `Recursive option is required to copy a directory: ${source}`, source);
}

/**
 * cp / cpSync as Node runs them: the filter, the source's stat (ENOENT first), the checks on the
 * pair (the same file, a folder onto a file or back, a folder into itself), the target's parent
 * made, then a file copied as copyFile copies it and given the source's mode (unless the target
 * exists and force is off: skipped, or ERR_FS_CP_EEXIST under errorOnExist), a folder (recursive
 * only) made with the source's mode and filled entry by entry. `form` says which API called:
 * cpSync checks its pair as Node 22 and 24 do (CP_SYNC_CHECKS_FIRST_VERSION).
 */
export function cp(ctx: ServeContext, from: string, to: string, options: unknown, form: 'sync' | 'scheduled'): void {
  const disk = ctx.world.disk;
  const [source, target] = [disk.resolve(from), disk.resolve(to)];
  const filter = optionOf<((src: string, dest: string) => unknown) | undefined>(options, 'filter', undefined);
  if (filter !== undefined) {
    const keep = filter(source, target);
    if (typeof (keep as { then?: unknown } | null)?.then === 'function') throw Object.assign(new TypeError('durasim serves cp with a synchronous filter only: an asynchronous one would run outside the step'), { code: 'ERR_INVALID_ARG_VALUE' });
    if (!keep) return;
  }
  // Node's own stat(2) calls take the paths as given: a trailing slash on a file is ENOTDIR.
  const sourceStats = disk.statOf(from);
  const checkedFirst = form === 'sync' && ctx.world.scenario.version >= CP_SYNC_CHECKS_FIRST_VERSION;
  if (checkedFirst) cpSyncCheck(disk, from, to, sourceStats, optionOf(options, 'recursive', false));
  const targetStats = stat(disk, to, { throwIfNoEntry: false }, true); // as Node's: ENOENT is no target, any other error stands
  if (!checkedFirst) {
    if (targetStats !== undefined) {
      if (targetStats.ino === sourceStats.ino) throw cpError('ERR_FS_CP_EINVAL', 22, 'EINVAL', 'src and dest cannot be the same', target);
      if (sourceStats.isDirectory() && !targetStats.isDirectory()) throw cpError('ERR_FS_CP_DIR_TO_NON_DIR', 21, 'EISDIR', `cannot overwrite non-directory ${target} with directory ${source}`, target);
      if (!sourceStats.isDirectory() && targetStats.isDirectory()) throw cpError('ERR_FS_CP_NON_DIR_TO_DIR', 20, 'ENOTDIR', `cannot overwrite directory ${target} with non-directory ${source}`, target);
    }
    if (sourceStats.isDirectory() && target.startsWith(`${source}/`)) throw cpError('ERR_FS_CP_EINVAL', 22, 'EINVAL', `cannot copy ${source} to a subdirectory of self ${target}`, target);
  }
  if (!disk.exists(posix.dirname(target))) disk.mkdir(posix.dirname(target), true);
  if (!sourceStats.isDirectory()) {
    if (targetStats !== undefined && !optionOf(options, 'force', true)) {
      if (optionOf(options, 'errorOnExist', false)) throw cpError('ERR_FS_CP_EEXIST', 17, 'EEXIST', `${target} already exists`, target);
      return;
    }
    if (targetStats !== undefined) disk.unlink(target);
    if (to.endsWith('/')) throw ioError('EISDIR', 'copyfile', source, `${target}/`); // its open creates there
    copyFile(ctx, source, target, false);
    disk.changeMeta('chmod', target, { kind: 'mode', mode: sourceStats.mode & 0o7777 });
    return;
  }
  if (!optionOf(options, 'recursive', false)) throw cpError('ERR_FS_EISDIR', 21, 'EISDIR', `Recursive option is required to copy a directory: ${source}`, source);
  if (targetStats === undefined) {
    disk.mkdir(target, false);
    for (const name of disk.readdir(source)) cp(ctx, posix.join(source, name), posix.join(target, name), options, form);
    disk.changeMeta('chmod', target, { kind: 'mode', mode: sourceStats.mode & 0o7777 });
    return;
  }
  for (const name of disk.readdir(source)) cp(ctx, posix.join(source, name), posix.join(target, name), options, form);
}
