/**
 * Disk: a crash-consistent virtual disk, memfs underneath.
 *
 * Durability rules (what survives a machine crash):
 * - memfs holds what processes see (the page cache). Written data is volatile until an fsync of a
 *   handle on that file; directory entries (create, rename, link, unlink, mkdir) until an fsync of
 *   a handle on the parent directory. Then the file's bytes, or the directory's entries, are durable.
 *   A rename across folders is atomic: an fsync of either folder makes it durable on both sides
 *   (one journal transaction on ext4 and XFS; "All File Systems Are Not Created Equal", OSDI '14).
 *   Opening with 'w' truncates: the file's unsynced appends are gone, not just hidden.
 * - Crash modes: keep-all (a process kill: nothing is lost); lose-unsynced (the disk returns to its
 *   durable image); per-file, torn-tail and torn-write (what each leaves of each file, after ALICE,
 *   CrashMonkey and LazyFS: crashBytes.ts). Directory entries are all-or-nothing per folder fsync.
 * - I/O errors (a scenario fault armed for one worker step): a read fails; a write stores its
 *   first `writtenBytes` (a short write) and fails; any other call fails and does nothing (close
 *   still releases the handle). A failed fsync is Linux's: the file's unsynced writes are marked
 *   clean without reaching the disk — still visible, never durable — and a later fsync succeeds
 *   (PostgreSQL's "fsyncgate", 2018; Rebello et al., "Can Applications Recover from fsync
 *   Failures?", ATC '20). A later append that does reach the disk leaves them as zeros.
 * - Handles behave as node:fs's FileHandle: reads and writes start at the handle's position and
 *   move it (writes go to the end on a handle opened for append); writing through a handle never
 *   truncates; a closed handle stays closed though memfs reuses its number. What Linux refuses and
 *   memfs allows is refused first (linuxChecks.ts). A differential test against real node:fs
 *   holds all of this to Node's behaviour (properties/fsConformance.test.ts).
 * - The user's edits are saved in place and durably (an editor that fsyncs the file and its directory).
 * - The simulated process's umask is 022: a file is created 0o644 (or its open mode less 022), a
 *   folder 0o755; permissions are checked for the owner as memfs checks them (root's bypass is not
 *   modelled). A folder's size is 4096, and blocks count 512-byte units of 4 KiB blocks, as on ext4
 *   (as if every byte of a file were written: a sparse file's holes are counted).
 * Metadata calls (stat, chmod/chown/utimes, realpath, readlink) are the layer below: diskMeta.ts.
 * The durable image is kept incrementally (durableImage.ts) under inode ids of our own, fresh at
 * every creation: memfs reuses deleted inodes' numbers.
 */
import { posix } from 'node:path';
import { extended } from './crashBytes.js';
import { CREATE_MODE, UMASK, type OpenFile } from './diskState.js';
import { DiskMeta } from './diskMeta.js';
import { invariant } from '../invariant.js';
import { ioError } from './ioError.js';
import { linuxLinkCheck, linuxPathCheck, linuxRenameCheck, NAME_MAX } from './linuxChecks.js';
import { closeFd, openFd, readAt, readWhole, writeAt } from './memfsCore.js';
import { existsAt, isDirectoryAt, nodeAt, nodeOfFd, sizeOfFd } from './memfsLookup.js';
import type { SecretWatch } from './secretWatch.js';
import type { TempWatch } from './tempWatch.js';
import type { DiskCall } from './diskCallLog.js';

export type { OpenFile } from './diskState.js';

export { UMASK } from './diskState.js';
export type { FileStats, MetaChange } from './diskMeta.js';

export class Disk extends DiskMeta {
  /** With a task that carries an access token: sees every write and every new name (secretWatch.ts). */
  secretWatch: SecretWatch | undefined;
  /** With a task that keeps temp files: sees every step that removes, moves or rewrites a file (tempWatch.ts). */
  tempWatch: TempWatch | undefined;
  /** When set: told every change the journal's calls make (diskCallLog.ts). */
  callLog: ((call: DiskCall) => void) | undefined;

  private rel(abs: string): string { return posix.relative(this.dir, abs); }

  // ---- the process-facing operations (each is one step; the caller records it) ----

  /** open(2); `mode`: the new file's permissions before the umask (node:fs's default 0o666). */
  openFile(path: string, flags: string, owner: number, mode = CREATE_MODE): OpenFile {
    this.faults.failIfArmed('open', this.resolve(path));
    return this.openUnchecked(path, flags, owner, mode);
  }

  private openUnchecked(path: string, flags: string, owner: number, mode = CREATE_MODE): OpenFile {
    const abs = this.resolve(path);
    linuxPathCheck(this.vol, 'open', abs);
    // A trailing slash asks for a folder (path_resolution(7)): creating there is EISDIR (a folder too, even exclusively), a file there ENOTDIR.
    if (path.endsWith('/') && isDirectoryAt(this.vol, posix.dirname(abs))) {
      if (flags.startsWith('w') || flags.startsWith('a')) throw ioError('EISDIR', 'open', `${abs}/`);
      if (existsAt(this.vol, abs) && !isDirectoryAt(this.vol, abs)) throw ioError('ENOTDIR', 'open', `${abs}/`);
    }
    const sizeBefore = this.callLog !== undefined && flags.startsWith('w') && existsAt(this.vol, abs) && !isDirectoryAt(this.vol, abs) ? Number(this.vol.statSync(abs).size) : 0;
    const { fd, created: creates } = openFd(this.vol, abs, flags);
    if (this.callLog) {
      if (creates) this.callLog({ op: 'create', path: this.rel(abs) });
      else if (sizeBefore > 0) this.callLog({ op: 'truncate', path: this.rel(abs), size: 0 });
    }
    if (creates) this.secretWatch?.sawName(posix.relative(this.dir, abs));
    else if (flags !== 'r' && flags !== 'rs') this.tempWatch?.touched('opened it for writing', posix.relative(this.dir, abs));
    const node = nodeOfFd(this.vol, fd);
    const ino = creates ? this.fresh(node.ino) : this.id(node.ino);
    if (creates) {
      (node as unknown as { perm: number }).perm = mode & 0o7777 & ~UMASK;
      if (mode !== CREATE_MODE) this.metaDirty.add(ino); // a mode of its own: durable with the file's fsync
    }
    const isDirectory = node.isDirectory();
    if (!this.image.kinds.has(ino)) this.image.kinds.set(ino, isDirectory ? 'dir' : 'file');
    // A truncation: unsynced appends are gone from the file; durable bytes are replaced at the next fsync.
    if (!isDirectory && !creates && flags.startsWith('w')) this.dirty.set(ino, this.image.length(ino) > 0 ? 'rewrite' : { appends: [] });
    const file: OpenFile = { fd, ino, path: abs, isDirectory, append: flags.startsWith('a'), readOnly: flags === 'r' || flags === 'rs', writeOnly: !flags.includes('+') && !flags.startsWith('r'), position: 0, owner };
    this.open.set(fd, file);
    return file;
  }

  /** The fd of `file` while that very handle is open: memfs reuses numbers, and a closed handle must never reach the next file opened. */
  fdOf(file: OpenFile): number {
    if (!this.isOpen(file)) throw ioError('EBADF', 'fstat');
    return file.fd;
  }

  isOpen(file: OpenFile): boolean { return this.open.get(file.fd) === file; }

  /**
   * write(2) of `data` (pwrite at `position`). `oneCall`: the caller makes exactly one write(2),
   * empty or not (writeSync, fh.write): a read-only handle refuses it even empty (EBADF), where a
   * writeFile of nothing makes no call at all.
   */
  handleWrite(fd: number, data: Uint8Array, position?: number, oneCall = false): void {
    const file = this.handle(fd);
    if ((data.length > 0 || oneCall) && file.readOnly) throw ioError('EBADF', 'write');
    const fault = data.length > 0 ? this.faults.pending : undefined;
    const stored = fault ? Math.min(fault.writtenBytes ?? 0, data.length - 1) : data.length;
    if (fault) this.faults.take(`write to ${file.path} stored ${stored} of ${data.length} bytes and failed`);
    const bytes = Buffer.from(data.subarray(0, stored));
    if (bytes.length > 0) {
      const size = sizeOfFd(this.vol, fd);
      // On Linux a write to a file opened for append goes to the end, whatever position it names.
      const at = file.append ? size : (position ?? file.position);
      writeAt(this.vol, fd, bytes, at);
      this.callLog?.({ op: 'write', path: this.rel(file.path), at, bytes });
      if (position === undefined) file.position = at + bytes.length; // pwrite(2) never moves the offset, even under O_APPEND
      if (at === size) this.markAppend(file.ino, bytes);
      else this.markOverwrite(file.ino);
      if (this.secretWatch && existsAt(this.vol, file.path)) this.secretWatch.sawWrite(posix.relative(this.dir, file.path), this.vol.readFileSync(file.path) as Buffer, at, bytes.length);
    }
    if (fault) throw ioError(fault.error, 'write');
  }

  /** FileHandle.readFile: from the handle's position to the end, which it then is at. */
  handleRead(fd: number): Buffer {
    const file = this.handle(fd);
    this.faults.failIfArmed('read', file.path);
    if (file.writeOnly) throw ioError('EBADF', 'read');
    if (file.isDirectory) throw ioError('EISDIR', 'read');
    const size = sizeOfFd(this.vol, fd);
    const start = Math.min(file.position, size);
    const buffer = Buffer.alloc(size - start);
    readAt(this.vol, fd, buffer, start);
    file.position = Math.max(file.position, size); // past the end (a truncation since), it stays where it was
    return buffer;
  }

  /** read(2) or pread(2): up to `length` bytes from `position` (default: the handle's, which then moves past them). */
  handleReadAt(fd: number, length: number, position?: number): Buffer {
    const file = this.handle(fd);
    this.faults.failIfArmed('read', file.path);
    if (file.writeOnly) throw ioError('EBADF', 'read');
    if (file.isDirectory) throw ioError('EISDIR', 'read');
    const size = sizeOfFd(this.vol, fd);
    const start = Math.min(position ?? file.position, size);
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - start)));
    readAt(this.vol, fd, buffer, start);
    if (position === undefined) file.position += buffer.length; // past the end, read(2) reads nothing and moves nothing
    return buffer;
  }

  /** ftruncate(2): the new length is volatile until an fsync, like any change of the bytes. */
  handleTruncate(fd: number, length: number): void {
    const file = this.handle(fd);
    this.faults.failIfArmed('ftruncate', file.path);
    if (file.readOnly || file.isDirectory) throw ioError('EINVAL', 'ftruncate');
    if (length === sizeOfFd(this.vol, fd)) return;
    this.vol.ftruncateSync(fd, length);
    this.callLog?.({ op: 'truncate', path: this.rel(file.path), size: length });
    if (length === 0) this.dirty.set(file.ino, this.image.length(file.ino) > 0 ? 'rewrite' : { appends: [] });
    else this.markOverwrite(file.ino);
  }

  /** rmdir(2): an empty folder's entry goes, volatile until its parent is fsynced. */
  rmdir(path: string): void {
    this.enter('rmdir', this.resolve(path));
    this.vol.rmdirSync(this.resolve(path));
    this.callLog?.({ op: 'rmdir', path: this.rel(this.resolve(path)) });
  }

  private contents(fd: number): Buffer {
    const size = sizeOfFd(this.vol, fd);
    const buffer = Buffer.alloc(size);
    readAt(this.vol, fd, buffer, 0);
    return buffer;
  }

  /** fsync: a file's bytes, or a directory's entries, become durable. A failed one drops the file's unsynced writes from writeback. */
  handleSync(fd: number): void {
    const file = this.handle(fd);
    if (file.isDirectory) {
      this.faults.failIfArmed('fsync', file.path);
      // A folder removed (or replaced) since it was opened has no entries of its own left to sync here.
      const node = nodeAt(this.vol, file.path);
      if (node !== undefined && this.id(node.ino) === file.ino) this.syncDirectory(file.ino, file.path);
      this.callLog?.({ op: 'fsync', path: `${this.rel(file.path) || '.'}/` });
      return;
    }
    const pending = this.dirty.get(file.ino);
    const fault = this.faults.take(`fsync of ${file.path} failed; its unsynced writes stay visible and will never be durable (a later fsync succeeds)`);
    if (fault) {
      const size = sizeOfFd(this.vol, fd);
      // Dropped pages keep what the disk held: nothing after a truncation, the old bytes under an overwrite.
      if (pending === 'rewrite') this.dirty.set(file.ino, { appends: [], droppedBytes: size, truncated: true });
      else if (pending === 'overwrite') this.dirty.set(file.ino, { appends: [], droppedBytes: Math.max(0, size - this.image.length(file.ino)) });
      else if (pending) this.dirty.set(file.ino, { appends: [], droppedBytes: (pending.droppedBytes ?? 0) + pending.appends.reduce((n, b) => n + b.length, 0), truncated: pending.truncated ?? false });
      throw ioError(fault.error, 'fsync');
    }
    this.callLog?.({ op: 'fsync', path: this.rel(file.path) });
    if (this.metaDirty.delete(file.ino)) {
      const stats = this.vol.fstatSync(fd);
      this.image.meta.set(file.ino, { mode: Number(stats.mode), uid: Number(stats.uid), gid: Number(stats.gid) });
      this.image.version++;
    }
    if (pending === undefined) return;
    if (pending === 'rewrite' || pending === 'overwrite') {
      this.image.setBytes(file.ino, this.contents(fd));
    } else {
      // Writes dropped by a failed fsync stay dropped until an append reaches the disk past them.
      if (pending.appends.length === 0) return;
      this.image.setBytes(file.ino, extended(this.image.bytes(file.ino), pending, pending.appends));
      // Written with the appends, checked at the fsync: the durable image is exactly the file's size.
      invariant(this.image.length(file.ino) === sizeOfFd(this.vol, fd), `${file.path}: durable bytes differ from the file's size after fsync`);
    }
    this.dirty.delete(file.ino);
  }

  handleClose(fd: number): void {
    const file = this.handle(fd);
    this.open.delete(fd);
    closeFd(this.vol, fd);
    const fault = this.faults.take(`close of ${file.path} failed (the handle is released)`);
    if (fault) throw ioError(fault.error, 'close');
  }

  closeOwnedBy(owner: number): void {
    for (const file of [...this.open.values()]) if (file.owner === owner) this.closeQuietly(file.fd);
  }

  /** fs.appendFile (flag 'a', mode append) and fs.writeFile (flag 'w' or 'wx', mode replace): open, write, close. */
  writeWhole(path: string, data: Uint8Array, flag: string, owner: number, mode = CREATE_MODE): void {
    const file = this.openUnchecked(path, flag, owner, mode);
    try {
      this.handleWrite(file.fd, data);
    } finally {
      this.closeQuietly(file.fd);
    }
  }

  readFile(path: string): Buffer {
    this.faults.failIfArmed('read', this.resolve(path));
    linuxPathCheck(this.vol, 'open', this.resolve(path));
    return readWhole(this.vol, this.resolve(path));
  }

  // Entries change in the page cache; they become durable at an fsync of the directory (a move across folders: of either one).
  rename(from: string, to: string): void {
    const [source, target] = [this.resolve(from), this.resolve(to)];
    this.enter('rename', source, target);
    linuxRenameCheck(this.vol, source, target);
    // Two names of one file: rename does nothing, both stay (POSIX; memfs would drop the source).
    const [sourceNode, targetNode] = [nodeAt(this.vol, source), nodeAt(this.vol, target)];
    if (targetNode !== undefined && sourceNode !== undefined && sourceNode.ino === targetNode.ino) return;
    const ids = [sourceNode, nodeAt(this.vol, posix.dirname(source)), nodeAt(this.vol, posix.dirname(target))].map((node) => (node !== undefined ? this.id(node.ino) : -1));
    const replaces = this.tempWatch !== undefined && targetNode !== undefined; // asked only when a temp folder is watched: renames are on the step path
    this.vol.renameSync(source, target);
    this.callLog?.({ op: 'rename', path: this.rel(source), to: this.rel(target) });
    this.tempWatch?.touched('renamed it away', posix.relative(this.dir, source));
    if (replaces) this.tempWatch?.touched('replaced it by a rename', posix.relative(this.dir, target));
    this.secretWatch?.sawName(posix.relative(this.dir, target));
    const [child, fromDir, toDir] = ids as [number, number, number];
    this.renames.note({ child, fromDir, fromName: posix.basename(source), toDir, toName: posix.basename(target) });
  }
  link(existing: string, to: string): void {
    this.faults.failIfArmed('link', this.resolve(existing));
    linuxLinkCheck(this.vol, this.resolve(existing), this.resolve(to));
    this.vol.linkSync(this.resolve(existing), this.resolve(to));
    this.callLog?.({ op: 'link', path: this.rel(this.resolve(existing)), to: this.rel(this.resolve(to)) });
    this.secretWatch?.sawName(posix.relative(this.dir, this.resolve(to)));
  }
  unlink(path: string): void {
    this.enter('unlink', this.resolve(path));
    if (isDirectoryAt(this.vol, this.resolve(path))) throw ioError('EISDIR', 'unlink', this.resolve(path));
    this.vol.unlinkSync(this.resolve(path));
    this.callLog?.({ op: 'unlink', path: this.rel(this.resolve(path)) });
    this.tempWatch?.touched('unlinked it', posix.relative(this.dir, this.resolve(path)));
  }

  /** mkdir(2), or mkdir -p; `mode`: the new folders' permissions before the umask (node:fs's default 0o777). */
  mkdir(path: string, recursive: boolean, mode = 0o777): void {
    const abs = this.resolve(path);
    this.enter('mkdir', abs);
    // mkdir -p makes the folders before a name too long, then fails on it (ENAMETOOLONG), as Node's does.
    const tooLong = recursive && abs.length * 3 > NAME_MAX ? abs.split('/').findIndex((part) => Buffer.byteLength(part) > NAME_MAX) : -1;
    if (tooLong > 0) {
      const before = abs.split('/').slice(0, tooLong).join('/');
      if (before !== '' && before !== this.dir && !existsAt(this.vol, before)) this.mkdir(before, true);
      throw ioError('ENAMETOOLONG', 'mkdir', abs);
    }
    const existing = nodeAt(this.vol, abs);
    const creates = existing === undefined;
    // mkdir -p meets a file: EEXIST, from Node's look at it — ENOTDIR when the path asked for a folder ('x/').
    if (existing !== undefined && recursive && !existing.isDirectory()) throw ioError(path.endsWith('/') ? 'ENOTDIR' : 'EEXIST', 'mkdir', abs);
    const made: string[] = [];
    if (this.callLog) for (let at = abs; at !== '/' && !existsAt(this.vol, at); at = posix.dirname(at)) made.unshift(at);
    this.vol.mkdirSync(abs, { recursive, mode: mode & 0o7777 & ~UMASK });
    for (const level of made) this.callLog?.({ op: 'mkdir', path: this.rel(level) });
    if (creates) this.secretWatch?.sawName(posix.relative(this.dir, abs));
    const ino = Number(this.vol.statSync(abs).ino);
    this.image.kinds.set(creates ? this.fresh(ino) : this.id(ino), 'dir');
  }

  readdir(path: string): string[] {
    this.enter('scandir', this.resolve(path));
    return this.entryNames(this.resolve(path));
  }

  /**
   * The user saves a file in place (same inode when it exists), then fsyncs it and its directory:
   * the save is durable at once, and so is every entry of that directory at that moment.
   */
  userWrite(path: string, text: string): void {
    const abs = this.resolve(path);
    const dir = posix.dirname(abs);
    this.vol.mkdirSync(dir, { recursive: true, mode: 0o777 & ~UMASK });
    const creates = !this.vol.existsSync(abs);
    this.vol.writeFileSync(abs, text, { mode: CREATE_MODE & ~UMASK });
    const ino = creates ? this.fresh(Number(this.vol.statSync(abs).ino)) : this.id(Number(this.vol.statSync(abs).ino));
    this.image.kinds.set(ino, 'file');
    this.image.setBytes(ino, Buffer.from(text));
    this.dirty.delete(ino);
    this.syncDirectory(this.id(Number(this.vol.statSync(dir).ino)), dir);
  }
}
