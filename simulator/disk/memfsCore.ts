/**
 * The disk's hot calls made on memfs's own objects — its tree of links and inodes, its open files —
 * instead of through Volume's API, which on every call turns the path into a filename and the
 * filename into steps (path.resolve, split), parses the flags, checks the arguments and announces
 * the change to watchers nobody has (the world serves no fs.watch). Each does what the Volume call
 * does on its common path, with memfs's own objects (so the volume stays memfs's, whole); anything
 * else — a missing path, a symbolic link, an odd flag, a refusal — goes to the Volume call itself,
 * so every error is memfs's own. memfsCore.test.ts holds each one to its Volume call.
 */
import type { Volume } from 'memfs';
import { linkAt, plainLinkAt, type CoreLink, type CoreNode } from './memfsLookup.js';

interface CoreFile {
  fd: number;
  node: CoreNode & { write(buf: Uint8Array, off: number, len: number, pos: number): number; read(buf: Uint8Array, off: number, len: number, pos: number): number; getBuffer(): Buffer };
  write(buf: Uint8Array, offset: number, length: number, position?: number): number;
  read(buf: Uint8Array, offset: number, length: number, position?: number): number;
}

interface Core {
  getFileByFd(fd: number): CoreFile | undefined;
  closeFile(file: CoreFile): void;
  openLink(link: CoreLink, flagsNum: number, resolveSymlinks: boolean, filename: string): CoreFile;
  createLink(parent: CoreLink, name: string, isDirectory: boolean, mode: number): CoreLink;
}

/** Linux's open(2) flags, as node:fs and memfs number them (memfsCore.test.ts holds them to memfs's). */
const O_WRONLY = 1;
const O_RDWR = 2;
const O_CREAT = 64;
const O_EXCL = 128;
const O_TRUNC = 512;
const O_APPEND = 1024;
const O_SYNC = 1052672;

/** The flag strings memfs knows, as numbers (its FLAGS table; a string it does not know goes to openSync, which refuses it). */
export const OPEN_FLAGS: Readonly<Record<string, number>> = {
  r: 0,
  'r+': O_RDWR,
  rs: O_SYNC,
  sr: O_SYNC,
  'rs+': O_RDWR | O_SYNC,
  'sr+': O_RDWR | O_SYNC,
  w: O_TRUNC | O_CREAT | O_WRONLY,
  wx: O_TRUNC | O_CREAT | O_WRONLY | O_EXCL,
  xw: O_TRUNC | O_CREAT | O_WRONLY | O_EXCL,
  'w+': O_TRUNC | O_CREAT | O_RDWR,
  'wx+': O_TRUNC | O_CREAT | O_RDWR | O_EXCL,
  'xw+': O_TRUNC | O_CREAT | O_RDWR | O_EXCL,
  a: O_APPEND | O_CREAT | O_WRONLY,
  ax: O_APPEND | O_CREAT | O_WRONLY | O_EXCL,
  xa: O_APPEND | O_CREAT | O_WRONLY | O_EXCL,
  'a+': O_APPEND | O_CREAT | O_RDWR,
  'ax+': O_APPEND | O_CREAT | O_RDWR | O_EXCL,
  'xa+': O_APPEND | O_CREAT | O_RDWR | O_EXCL,
};

const coreOf = (vol: Volume): Core => vol._core as unknown as Core;

/** The mode a file is created with when open() names none (0o666, as node:fs and memfs default it). */
const CREATE_MODE = 0o666;

/**
 * vol.openSync(abs, flags): the fd, and whether the call created the file. An existing plain file
 * (no symbolic link on the way), or a new one in an existing folder, is opened on memfs's objects;
 * anything else by openSync itself.
 */
export function openFd(vol: Volume, abs: string, flags: string): { fd: number; created: boolean } {
  const flagsNum = OPEN_FLAGS[flags];
  const found = flagsNum === undefined || abs.includes('\u0000') || abs === '/' ? 'slow' : plainLinkAt(vol, abs);
  if (found === 'slow' || flagsNum === undefined) return openSlowly(vol, abs, flags);
  const core = coreOf(vol);
  if (found !== undefined) {
    const node = found.getNode();
    // An exclusive create of a name that exists, or a create over a folder: memfs refuses it (EEXIST, EISDIR).
    if ((flagsNum & O_EXCL && flagsNum & O_CREAT) || (flagsNum & O_CREAT && node.isDirectory())) return openSlowly(vol, abs, flags);
    return { fd: core.openLink(found, flagsNum, false, abs).fd, created: false };
  }
  if (!(flagsNum & O_CREAT)) return openSlowly(vol, abs, flags); // ENOENT, as memfs words it
  const at = abs.lastIndexOf('/');
  const folder = linkAt(vol, at === 0 ? '/' : abs.slice(0, at));
  const folderNode = folder?.getNode();
  if (folder === undefined || !folderNode?.isDirectory() || !folderNode.canExecute() || !folderNode.canWrite()) return openSlowly(vol, abs, flags);
  const link = core.createLink(folder, abs.slice(at + 1), false, CREATE_MODE);
  return { fd: core.openLink(link, flagsNum, false, abs).fd, created: true };
}

function openSlowly(vol: Volume, abs: string, flags: string): { fd: number; created: boolean } {
  const existed = linkAt(vol, abs) !== undefined;
  const fd = vol.openSync(abs, flags) as number;
  return { fd, created: !existed };
}

/** vol.readFileSync(abs): a plain file it may read is read off its inode; anything else (an error among them) by readFileSync. */
export function readWhole(vol: Volume, abs: string): Buffer {
  const found = abs.includes('\u0000') ? 'slow' : plainLinkAt(vol, abs);
  if (found === 'slow' || found === undefined) return vol.readFileSync(abs) as Buffer;
  const node = found.getNode() as CoreFile['node'];
  if (node.isDirectory() || !node.canRead()) return vol.readFileSync(abs) as Buffer;
  return node.getBuffer();
}

function fileOf(vol: Volume, fd: number): CoreFile {
  const file = coreOf(vol).getFileByFd(fd);
  // The disk calls these only for a handle it knows is open: a missing one is its own bug.
  if (file === undefined) throw new Error(`memfs has no open file ${fd}`);
  return file;
}

/** vol.writeSync(fd, bytes, 0, bytes.length, position): `bytes` written at `position`, as the open file writes them (no watcher is told). */
export function writeAt(vol: Volume, fd: number, bytes: Uint8Array, position: number): void {
  if (bytes.length > 0) fileOf(vol, fd).write(bytes, 0, bytes.length, position);
}

/** vol.readSync(fd, buffer, 0, buffer.length, position): the bytes read into `buffer`. */
export function readAt(vol: Volume, fd: number, buffer: Uint8Array, position: number): number {
  return buffer.length === 0 ? 0 : fileOf(vol, fd).read(buffer, 0, buffer.length, position);
}

/** vol.closeSync(fd) for an fd that is open. */
export function closeFd(vol: Volume, fd: number): void {
  coreOf(vol).closeFile(fileOf(vol, fd));
}
