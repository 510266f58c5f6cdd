/**
 * node:fs's calls, each as one operation on the crash-consistent disk, named by its synchronous
 * form (openSync, writeFileSync, ...). The synchronous API runs one at once (an atomic step), the
 * callback and promise APIs run the same one as a scheduled step (servedFs.ts), so the three
 * agree by construction. Semantics follow node:fs on Linux (positions, flags, what a call returns)
 * and are held to real node:fs by properties/servedFsConformance.test.ts.
 */
import { posix } from 'node:path';
import { constants } from 'node:fs'; // allow-ambient: flag constants, no I/O
import type { Disk, MetaChange } from '../../disk/disk.js';
import { ioError } from '../../disk/ioError.js';
import { preview, previewData, rel } from '../../world/trace.js';
import { bytesOf, decoded, fdOf, modeOf, pathOf, dirent, encodingOf, invalidArg, openFlags, optionOf, positionOf, scatter, viewsOf, type DirentLike } from './fsArgs.js';
import { written, type ServeContext } from './serveContext.js';
import { ServedDir } from './servedDir.js';
import { copyFile, cp, mkdtemp, stat } from './fsCompound.js';

/** One call: what the trace shows, and what it does when it runs. */
export interface FsOp {
  detail: string;
  run: () => unknown;
}

type OpOf = (ctx: ServeContext, args: readonly unknown[]) => FsOp;

const show = (data: unknown): string => (typeof data === 'string' || ArrayBuffer.isView(data) ? previewData(data) : preview(String(data)));


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

const targetName = (disk: Disk, target: unknown): string => (typeof target === 'number' ? fdName(disk, target) : named(disk, target));

const metaOp = (syscall: string, kind: 'path' | 'fd' | 'link', change: (args: readonly unknown[]) => MetaChange): OpOf => (ctx, args) => ({
  detail: kind === 'fd' ? fdName(ctx.world.disk, args[0]) : named(ctx.world.disk, args[0]),
  run: () => ctx.world.disk.changeMeta(syscall, kind === 'fd' ? fdOf(args[0]) : pathOf(args[0]), change(args), kind !== 'link'),
});
const modeChange = (args: readonly unknown[]): MetaChange => ({ kind: 'mode', mode: modeOf(args[1]) });
const ownerChange = (args: readonly unknown[]): MetaChange => ({ kind: 'owner', uid: Number(args[1]), gid: Number(args[2]) });
const timesChange = (args: readonly unknown[]): MetaChange => ({ kind: 'times', atime: args[1] as number | Date, mtime: args[2] as number | Date });

/** writev(2): the buffers one after another, as one write. */
function writev(ctx: ServeContext, fd: unknown, buffers: unknown, position: unknown): number {
  if (!Array.isArray(buffers)) throw invalidArg('buffers', 'an instance of ArrayBufferView[]', buffers);
  const bytes = Buffer.concat(buffers.map((b) => bytesOf(b)));
  // No buffers: Node makes no writev(2) (so no EBADF on a read-only or closed fd); empty ones: it does.
  if (buffers.length === 0) return fdOf(fd) * 0;
  writeFd(ctx, fdOf(fd), bytes, positionOf(position), true);
  return bytes.length;
}

/** readv(2): one read, scattered over the buffers in order. */
function readv(ctx: ServeContext, fd: unknown, buffers: unknown, position: unknown): number {
  if (!Array.isArray(buffers)) throw invalidArg('buffers', 'an instance of ArrayBufferView[]', buffers);
  const views = viewsOf(buffers as ArrayBufferView[]);
  const descriptor = fdOf(fd); // Node checks the descriptor first (ERR_OUT_OF_RANGE for -1)
  // No buffers at all: libuv refuses the call (EINVAL); empty ones: one readv(2) of nothing.
  if (views.length === 0) throw ioError('EINVAL', 'read');
  const bytes = descriptor === 0 ? Buffer.alloc(0) : ctx.world.disk.handleReadAt(descriptor, views.reduce((n, v) => n + v.length, 0), positionOf(position));
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
        // A trailing slash asks for a folder (slashGate.ts): a file there does not exist.
        return !(pathOf(path).endsWith('/') && ctx.world.disk.kindAt(pathOf(path)) === 'file');
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
  cpSync: (ctx, [from, to, options]) => ({ detail: `${named(ctx.world.disk, from)} → ${named(ctx.world.disk, to)}`, run: () => cp(ctx, pathOf(from), pathOf(to), options, 'sync') }),
  /** fs.cp and fs.promises.cp (servedFs.ts): they check a folder's `recursive` after making the target's parent, on every Node line. */
  cpScheduledSync: (ctx, [from, to, options]) => ({ detail: `${named(ctx.world.disk, from)} → ${named(ctx.world.disk, to)}`, run: () => cp(ctx, pathOf(from), pathOf(to), options, 'scheduled') }),
  writevSync: (ctx, [fd, buffers, position]) => ({ detail: fdName(ctx.world.disk, fd), run: () => writev(ctx, fd, buffers, position) }),
  readvSync: (ctx, [fd, buffers, position]) => ({ detail: fdName(ctx.world.disk, fd), run: () => readv(ctx, fd, buffers, position) }),
  copyFileSync: (ctx, [from, to, mode]) => ({
    detail: `${named(ctx.world.disk, from)} → ${named(ctx.world.disk, to)}`,
    run: () => copyFile(ctx, pathOf(from), pathOf(to), (Number(mode ?? 0) & constants.COPYFILE_EXCL) !== 0),
  }),
};
