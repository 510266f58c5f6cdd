/**
 * node:fs's calls, each as one operation on the crash-consistent disk, named by its synchronous
 * form (openSync, writeFileSync, ...). The synchronous API runs one at once (an atomic step), the
 * callback and promise APIs run the same one as a scheduled step (servedFs.ts), so the three
 * agree by construction. Semantics follow node:fs on Linux (positions, flags, what a call returns)
 * and are held to real node:fs by properties/servedFsConformance.test.ts.
 */
import { posix } from 'node:path';
import { constants } from 'node:fs'; // allow-ambient: flag constants, no I/O
import type { Disk, FileStats, MetaChange } from '../../disk/disk.js';
import { ioError } from '../../disk/ioError.js';
import { preview, previewData, rel } from '../../world/trace.js';
import { bytesOf, decoded, dirent, encodingOf, invalidArg, openFlags, optionOf, positionOf, scatter, viewsOf, type DirentLike } from './fsArgs.js';
import type { ServeContext } from './serveContext.js';
import { ServedDir } from './servedDir.js';

/** One call: what the trace shows, and what it does when it runs. */
export interface FsOp {
  detail: string;
  run: () => unknown;
}

type OpOf = (ctx: ServeContext, args: readonly unknown[]) => FsOp;

const show = (data: unknown): string => (typeof data === 'string' || ArrayBuffer.isView(data) ? previewData(data) : preview(String(data)));

export function pathOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof URL && value.protocol === 'file:') return decodeURIComponent(value.pathname);
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  throw invalidArg('path', 'of type string or an instance of Buffer or URL', value);
}

function fdOf(value: unknown): number {
  if (typeof value !== 'number') throw invalidArg('fd', 'of type number', value);
  if (Number.isInteger(value) && value >= 0 && value <= 2 ** 31 - 1) return value;
  throw Object.assign(new RangeError(`The value of "fd" is out of range. It must be >= 0 && <= 2147483647. Received ${value}`), { code: 'ERR_OUT_OF_RANGE' });
}

const named = (disk: Disk, path: unknown): string => rel(disk.resolve(pathOf(path)));
/** The process's standard descriptors: stdout and stderr are its output (kept as console output), stdin reads as /dev/null. */
const STANDARD = ['stdin', 'stdout', 'stderr'] as const;
const standard = (fd: unknown): (typeof STANDARD)[number] | undefined => (fd === 0 || fd === 1 || fd === 2 ? STANDARD[fd] : undefined);

/** A write to a descriptor: to the process's output for 1 and 2 (a pipe: no position, no fsync), else to the disk. */
function writeFd(ctx: ServeContext, fd: number, bytes: Buffer, position?: number, really?: boolean): void {
  const stream = standard(fd);
  if (stream === 'stdout' || stream === 'stderr') ctx.proc.output(stream, bytes.toString('utf8'));
  else ctx.world.disk.handleWrite(fd, written(ctx, bytes), position, really);
}

/** fsync(2) of a descriptor: a pipe (stdin, stdout, stderr) cannot be synced (EINVAL). */
function syncFd(ctx: ServeContext, fd: number, syscall: 'fsync' | 'fdatasync'): void {
  if (standard(fd) !== undefined) throw ioError('EINVAL', syscall);
  ctx.world.disk.handleSync(fd);
}

const fdName = (disk: Disk, fd: unknown): string => {
  const stream = standard(fd);
  if (stream !== undefined) return stream;
  try {
    const file = disk.handle(fdOf(fd));
    return file.isDirectory ? `${rel(file.path)}/` : rel(file.path);
  } catch {
    return `fd ${String(fd)}`;
  }
};

/** A write's bytes, noted for the run's payload hash when it runs. */
export function written(ctx: ServeContext, bytes: Buffer): Buffer {
  ctx.world.notePayload(bytes);
  return bytes;
}

/** writeSync(fd, buffer[, offset[, length[, position]]]) and writeSync(fd, string[, position[, encoding]]). */
function writeArgs(args: readonly unknown[]): { bytes: Buffer; position: number | undefined } {
  const [, data] = args;
  if (typeof data === 'string') return { bytes: Buffer.from(data, (args[3] as BufferEncoding | undefined) ?? 'utf8'), position: positionOf(args[2]) };
  const all = bytesOf(data);
  if (typeof args[2] === 'object' && args[2] !== null) {
    const o = args[2] as { offset?: number; length?: number; position?: number | null };
    const offset = o.offset ?? 0;
    return { bytes: all.subarray(offset, offset + (o.length ?? all.length - offset)), position: positionOf(o.position) };
  }
  const offset = (args[2] as number | undefined) ?? 0;
  const length = (args[3] as number | undefined) ?? all.length - offset;
  return { bytes: all.subarray(offset, offset + length), position: positionOf(args[4]) };
}

/** readSync(fd, buffer[, offset[, length[, position]]]) and readSync(fd, buffer, { offset, length, position }). */
function readArgs(args: readonly unknown[]): { buffer: Uint8Array; offset: number; length: number; position: number | undefined } {
  const buffer = args[1];
  if (!ArrayBuffer.isView(buffer)) throw invalidArg('buffer', 'an instance of Buffer, TypedArray, or DataView', buffer);
  const view = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (typeof args[2] === 'object' && args[2] !== null) {
    const o = args[2] as { offset?: number; length?: number; position?: number | null };
    const offset = o.offset ?? 0;
    return { buffer: view, offset, length: o.length ?? view.length - offset, position: positionOf(o.position) };
  }
  const offset = (args[2] as number | undefined) ?? 0;
  return { buffer: view, offset, length: (args[3] as number | undefined) ?? view.length - offset, position: positionOf(args[4]) };
}

/** The first folder mkdir -p creates (what Node returns), before it creates it. */
function firstCreated(disk: Disk, abs: string): string | undefined {
  let first: string | undefined;
  for (let at = abs; at !== '/' && !disk.exists(at); at = posix.dirname(at)) first = at;
  return first;
}

function remove(disk: Disk, abs: string, recursive: boolean): void {
  const stats = disk.statOf(abs, false);
  if (!stats.isDirectory()) return disk.unlink(abs);
  if (!recursive) throw Object.assign(new Error(`Path is a directory: rm returned EISDIR (is a directory) ${abs}`), { code: 'ERR_FS_EISDIR', errno: 21, syscall: 'rm', path: abs });
  for (const name of disk.readdir(abs)) remove(disk, posix.join(abs, name), true);
  disk.rmdir(abs);
}

function readdir(disk: Disk, path: unknown, options: unknown): string[] | DirentLike[] {
  const abs = disk.resolve(pathOf(path));
  const names = disk.readdir(abs);
  if (!optionOf(options, 'withFileTypes', false)) return names;
  return names.map((name) => dirent(name, abs, disk.statOf(posix.join(abs, name), false).isDirectory()));
}

function stat(disk: Disk, path: unknown, options: unknown, follow: boolean): FileStats | undefined {
  try {
    return disk.statOf(pathOf(path), follow);
  } catch (error) {
    if (!optionOf(options, 'throwIfNoEntry', true) && (error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

function readWhole(ctx: ServeContext, target: unknown, options: unknown): Buffer | string {
  const disk = ctx.world.disk;
  const bytes = typeof target === 'number' ? (target === 0 ? Buffer.alloc(0) : disk.handleRead(target)) : disk.readFile(pathOf(target));
  return decoded(bytes, encodingOf(options));
}

function writeWhole(ctx: ServeContext, target: unknown, data: unknown, options: unknown, append: boolean): void {
  const disk = ctx.world.disk;
  const bytes = bytesOf(data, encodingOf(options));
  if (typeof target === 'number') return writeFd(ctx, target, bytes);
  written(ctx, bytes);
  const mode = optionOf<unknown>(options, 'mode', undefined);
  disk.writeWhole(pathOf(target), bytes, openFlags(optionOf(options, 'flag', undefined), append ? 'a' : 'w'), ctx.proc.pid, mode === undefined ? undefined : modeOf(mode));
}

/**
 * copyFile as libuv does it: the source is opened, then the target (created, or EEXIST under
 * COPYFILE_EXCL; EISDIR on a folder); one file under two names is left alone; a folder as source
 * fails with EISDIR and takes the target with it; else the target's bytes are replaced.
 */
function copyFile(ctx: ServeContext, from: string, to: string, exclusive: boolean): void {
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

const targetName = (disk: Disk, target: unknown): string => (typeof target === 'number' ? fdName(disk, target) : named(disk, target));

/** A file mode as node:fs takes it: a number, or a string of octal digits. */
export function modeOf(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0o7777_7777) return value;
  if (typeof value === 'string' && /^[0-7]+$/.test(value)) return Number.parseInt(value, 8);
  throw invalidArg('mode', 'a 32-bit unsigned integer or an octal string', value);
}

const metaOp = (syscall: string, kind: 'path' | 'fd' | 'link', change: (args: readonly unknown[]) => MetaChange): OpOf => (ctx, args) => ({
  detail: kind === 'fd' ? fdName(ctx.world.disk, args[0]) : named(ctx.world.disk, args[0]),
  run: () => ctx.world.disk.changeMeta(syscall, kind === 'fd' ? fdOf(args[0]) : pathOf(args[0]), change(args), kind !== 'link'),
});
const modeChange = (args: readonly unknown[]): MetaChange => ({ kind: 'mode', mode: modeOf(args[1]) });
const ownerChange = (args: readonly unknown[]): MetaChange => ({ kind: 'owner', uid: Number(args[1]), gid: Number(args[2]) });
const timesChange = (args: readonly unknown[]): MetaChange => ({ kind: 'times', atime: args[1] as number | Date, mtime: args[2] as number | Date });

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
function mkdtemp(ctx: ServeContext, prefix: string): string {
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
 * cp / cpSync as Node 20 runs them: the filter, the source's stat (ENOENT first), the checks on
 * the pair (the same file, a folder onto a file or back, a folder into itself), the target's
 * parent made, then a file copied as copyFile copies it and given the source's mode (unless the
 * target exists and force is off: skipped, or ERR_FS_CP_EEXIST under errorOnExist), a folder
 * (recursive only) made with the source's mode and filled entry by entry.
 */
function cp(ctx: ServeContext, from: string, to: string, options: unknown): void {
  const disk = ctx.world.disk;
  const [source, target] = [disk.resolve(from), disk.resolve(to)];
  const filter = optionOf<((src: string, dest: string) => unknown) | undefined>(options, 'filter', undefined);
  if (filter !== undefined) {
    const keep = filter(source, target);
    if (typeof (keep as { then?: unknown } | null)?.then === 'function') throw Object.assign(new TypeError('durasim serves cp with a synchronous filter only: an asynchronous one would run outside the step'), { code: 'ERR_INVALID_ARG_VALUE' });
    if (!keep) return;
  }
  const sourceStats = disk.statOf(source);
  const targetStats = stat(disk, target, { throwIfNoEntry: false }, true); // as Node's: ENOENT is no target, any other error stands
  if (targetStats !== undefined) {
    if (targetStats.ino === sourceStats.ino) throw cpError('ERR_FS_CP_EINVAL', 22, 'EINVAL', 'src and dest cannot be the same', target);
    if (sourceStats.isDirectory() && !targetStats.isDirectory()) throw cpError('ERR_FS_CP_DIR_TO_NON_DIR', 21, 'EISDIR', `cannot overwrite non-directory ${target} with directory ${source}`, target);
    if (!sourceStats.isDirectory() && targetStats.isDirectory()) throw cpError('ERR_FS_CP_NON_DIR_TO_DIR', 20, 'ENOTDIR', `cannot overwrite directory ${target} with non-directory ${source}`, target);
  }
  if (sourceStats.isDirectory() && target.startsWith(`${source}/`)) throw cpError('ERR_FS_CP_EINVAL', 22, 'EINVAL', `cannot copy ${source} to a subdirectory of self ${target}`, target);
  if (!disk.exists(posix.dirname(target))) disk.mkdir(posix.dirname(target), true);
  if (!sourceStats.isDirectory()) {
    if (targetStats !== undefined && !optionOf(options, 'force', true)) {
      if (optionOf(options, 'errorOnExist', false)) throw cpError('ERR_FS_CP_EEXIST', 17, 'EEXIST', `${target} already exists`, target);
      return;
    }
    if (targetStats !== undefined) disk.unlink(target);
    copyFile(ctx, source, target, false);
    disk.changeMeta('chmod', target, { kind: 'mode', mode: sourceStats.mode & 0o7777 });
    return;
  }
  if (!optionOf(options, 'recursive', false)) throw cpError('ERR_FS_EISDIR', 21, 'EISDIR', `Recursive option is required to copy a directory: ${source}`, source);
  if (targetStats === undefined) {
    disk.mkdir(target, false);
    for (const name of disk.readdir(source)) cp(ctx, posix.join(source, name), posix.join(target, name), options);
    disk.changeMeta('chmod', target, { kind: 'mode', mode: sourceStats.mode & 0o7777 });
    return;
  }
  for (const name of disk.readdir(source)) cp(ctx, posix.join(source, name), posix.join(target, name), options);
}

/** writev(2): the buffers one after another, as one write. */
function writev(ctx: ServeContext, fd: unknown, buffers: unknown, position: unknown): number {
  if (!Array.isArray(buffers)) throw invalidArg('buffers', 'an instance of ArrayBufferView[]', buffers);
  const bytes = Buffer.concat(buffers.map((b) => bytesOf(b)));
  // No buffers: Node makes no writev(2) (so no EBADF on a read-only fd); empty ones: it does.
  writeFd(ctx, fdOf(fd), bytes, positionOf(position), buffers.length > 0);
  return bytes.length;
}

/** readv(2): one read, scattered over the buffers in order. */
function readv(ctx: ServeContext, fd: unknown, buffers: unknown, position: unknown): number {
  if (!Array.isArray(buffers)) throw invalidArg('buffers', 'an instance of ArrayBufferView[]', buffers);
  const views = viewsOf(buffers as ArrayBufferView[]);
  // No buffers at all: libuv refuses the call (EINVAL); empty ones: one readv(2) of nothing.
  if (views.length === 0) throw ioError('EINVAL', 'read');
  const bytes = fd === 0 ? Buffer.alloc(0) : ctx.world.disk.handleReadAt(fdOf(fd), views.reduce((n, v) => n + v.length, 0), positionOf(position));
  scatter(bytes, views);
  return bytes.length;
}

export const FS_OPS: Record<string, OpOf> = {
  openSync: (ctx, [path, flags, mode]) => {
    const flag = openFlags(flags);
    return { detail: `${named(ctx.world.disk, path)} ${flag}`, run: () => ctx.world.disk.openFile(pathOf(path), flag, ctx.proc.pid, mode === undefined || mode === null ? undefined : modeOf(mode)).fd };
  },
  closeSync: (ctx, [fd]) => ({ detail: fdName(ctx.world.disk, fd), run: () => ctx.world.disk.handleClose(fdOf(fd)) }),
  readSync: (ctx, args) => ({
    detail: fdName(ctx.world.disk, args[0]),
    run: () => {
      const fd = fdOf(args[0]);
      const { buffer, offset, length, position } = readArgs(args);
      if (length === 0) return 0; // as node:fs: no read at all
      if (fd === 0) return 0; // stdin: /dev/null
      const bytes = ctx.world.disk.handleReadAt(fd, length, position);
      buffer.set(bytes, offset);
      return bytes.length;
    },
  }),
  writeSync: (ctx, args) => ({
    detail: `${fdName(ctx.world.disk, args[0])} ${show(args[1])}`,
    run: () => {
      const { bytes, position } = writeArgs(args);
      writeFd(ctx, fdOf(args[0]), bytes, position, true);
      return bytes.length;
    },
  }),
  fsyncSync: (ctx, [fd]) => ({ detail: fdName(ctx.world.disk, fd), run: () => syncFd(ctx, fdOf(fd), 'fsync') }),
  fdatasyncSync: (ctx, [fd]) => ({ detail: fdName(ctx.world.disk, fd), run: () => syncFd(ctx, fdOf(fd), 'fdatasync') }),
  ftruncateSync: (ctx, [fd, length]) => ({ detail: `${fdName(ctx.world.disk, fd)} ${Number(length ?? 0)}`, run: () => ctx.world.disk.handleTruncate(fdOf(fd), Number(length ?? 0)) }),
  fstatSync: (ctx, [fd]) => ({ detail: fdName(ctx.world.disk, fd), run: () => ctx.world.disk.statOf(fdOf(fd)) }),
  readFileSync: (ctx, [target, options]) => ({ detail: targetName(ctx.world.disk, target), run: () => readWhole(ctx, target, options) }),
  writeFileSync: (ctx, [target, data, options]) => ({ detail: `${targetName(ctx.world.disk, target)} ${show(data)}`, run: () => writeWhole(ctx, target, data, options, false) }),
  appendFileSync: (ctx, [target, data, options]) => ({ detail: `${targetName(ctx.world.disk, target)} ${show(data)}`, run: () => writeWhole(ctx, target, data, options, true) }),
  renameSync: (ctx, [from, to]) => ({ detail: `${named(ctx.world.disk, from)} → ${named(ctx.world.disk, to)}`, run: () => ctx.world.disk.rename(pathOf(from), pathOf(to)) }),
  linkSync: (ctx, [from, to]) => ({ detail: `${named(ctx.world.disk, from)} → ${named(ctx.world.disk, to)}`, run: () => ctx.world.disk.link(pathOf(from), pathOf(to)) }),
  unlinkSync: (ctx, [path]) => ({ detail: named(ctx.world.disk, path), run: () => ctx.world.disk.unlink(pathOf(path)) }),
  mkdirSync: (ctx, [path, options]) => ({
    detail: named(ctx.world.disk, path),
    run: () => {
      const recursive = typeof options === 'object' && options !== null && optionOf<boolean>(options, 'recursive', false) === true;
      const first = recursive ? firstCreated(ctx.world.disk, ctx.world.disk.resolve(pathOf(path))) : undefined;
      const mode = optionOf<unknown>(options, 'mode', undefined) ?? (typeof options === 'number' || typeof options === 'string' ? options : undefined);
      ctx.world.disk.mkdir(pathOf(path), recursive, mode === undefined ? undefined : modeOf(mode));
      return first;
    },
  }),
  readdirSync: (ctx, [path, options]) => ({ detail: named(ctx.world.disk, path), run: () => readdir(ctx.world.disk, path, options) }),
  statSync: (ctx, [path, options]) => ({ detail: named(ctx.world.disk, path), run: () => stat(ctx.world.disk, path, options, true) }),
  lstatSync: (ctx, [path, options]) => ({ detail: named(ctx.world.disk, path), run: () => stat(ctx.world.disk, path, options, false) }),
  accessSync: (ctx, [path]) => ({ detail: named(ctx.world.disk, path), run: () => void ctx.world.disk.statOf(pathOf(path)) }),
  existsSync: (ctx, [path]) => ({
    detail: typeof path === 'string' ? named(ctx.world.disk, path) : '',
    run: () => {
      try {
        ctx.world.disk.statOf(pathOf(path));
        return true;
      } catch {
        return false;
      }
    },
  }),
  realpathSync: (ctx, [path]) => ({ detail: named(ctx.world.disk, path), run: () => ctx.world.disk.realpath(pathOf(path), false) }),
  // realpath(3), as fs.realpathSync.native, fs.realpath.native and fs.promises.realpath call it.
  realpathNativeSync: (ctx, [path]) => ({ detail: named(ctx.world.disk, path), run: () => ctx.world.disk.realpath(pathOf(path), true) }),
  readlinkSync: (ctx, [path]) => ({ detail: named(ctx.world.disk, path), run: () => ctx.world.disk.readlink(pathOf(path)) }),
  rmdirSync: (ctx, [path]) => ({ detail: named(ctx.world.disk, path), run: () => ctx.world.disk.rmdir(pathOf(path)) }),
  rmSync: (ctx, [path, options]) => ({
    detail: named(ctx.world.disk, path),
    run: () => {
      const abs = ctx.world.disk.resolve(pathOf(path));
      try {
        return remove(ctx.world.disk, abs, optionOf(options, 'recursive', false));
      } catch (error) {
        // force forgives a missing path, and nothing else (ENOTDIR stands).
        if (optionOf(options, 'force', false) && (error as { code?: string }).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  }),
  truncateSync: (ctx, [path, length]) => ({
    detail: `${named(ctx.world.disk, path)} ${Number(length ?? 0)}`,
    run: () => {
      const disk = ctx.world.disk;
      const file = disk.openFile(pathOf(path), 'r+', ctx.proc.pid);
      try {
        disk.handleTruncate(file.fd, Number(length ?? 0));
      } finally {
        if (disk.isOpen(file)) disk.handleClose(file.fd);
      }
    },
  }),
  chmodSync: metaOp('chmod', 'path', modeChange),
  fchmodSync: metaOp('fchmod', 'fd', modeChange),
  chownSync: metaOp('chown', 'path', ownerChange),
  fchownSync: metaOp('fchown', 'fd', ownerChange),
  lchownSync: metaOp('lchown', 'link', ownerChange),
  utimesSync: metaOp('utime', 'path', timesChange),
  futimesSync: metaOp('futime', 'fd', timesChange),
  lutimesSync: metaOp('lutime', 'link', timesChange),
  mkdtempSync: (ctx, [prefix, options]) => ({
    detail: `${named(ctx.world.disk, String(prefix))}XXXXXX`,
    run: () => {
      if (typeof prefix !== 'string') throw invalidArg('prefix', 'of type string', prefix);
      const made = mkdtemp(ctx, prefix);
      return (encodingOf(options) as string | undefined) === 'buffer' ? Buffer.from(made) : made;
    },
  }),
  opendirSync: (ctx, [path]) => ({
    detail: named(ctx.world.disk, path),
    run: () => {
      const abs = ctx.world.disk.resolve(pathOf(path));
      if (!ctx.world.disk.statOf(abs).isDirectory()) throw ioError('ENOTDIR', 'opendir', abs);
      return new ServedDir(ctx, pathOf(path), abs, ctx.world.disk.readdir(abs));
    },
  }),
  cpSync: (ctx, [from, to, options]) => ({ detail: `${named(ctx.world.disk, from)} → ${named(ctx.world.disk, to)}`, run: () => cp(ctx, pathOf(from), pathOf(to), options) }),
  writevSync: (ctx, [fd, buffers, position]) => ({ detail: fdName(ctx.world.disk, fd), run: () => writev(ctx, fd, buffers, position) }),
  readvSync: (ctx, [fd, buffers, position]) => ({ detail: fdName(ctx.world.disk, fd), run: () => readv(ctx, fd, buffers, position) }),
  copyFileSync: (ctx, [from, to, mode]) => ({
    detail: `${named(ctx.world.disk, from)} → ${named(ctx.world.disk, to)}`,
    run: () => copyFile(ctx, pathOf(from), pathOf(to), (Number(mode ?? 0) & constants.COPYFILE_EXCL) !== 0),
  }),
};
