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
 * - The user's edits are saved in place and durably (an editor that fsyncs the file and its directory).
 * The durable image is kept incrementally (durableImage.ts) under inode ids of our own, fresh at
 * every creation: memfs reuses deleted inodes' numbers.
 */
import { Volume } from 'memfs';
import { posix } from 'node:path';
import type { DiskView } from '../src/contract.js';
import { bytesNotAsWritten, crashBytes, extended, type CrashShape, type Pending } from './crashBytes.js';
import { DurableImage } from './durableImage.js';
import { invariant } from './invariant.js';
import { ioError } from './ioError.js';
import { IoFaultSlot } from './ioFaultSlot.js';
import { RenameLog } from './renameLog.js';
import type { CrashDiskReport } from './runRecords.js';
import { digestOfFiles, volumeFiles } from './volumeFiles.js';

interface OpenFile {
  fd: number;
  ino: number;
  path: string;
  isDirectory: boolean;
  append: boolean;
  owner: number;
}

export class Disk {
  private vol = new Volume();
  private ids = new Map<number, number>();
  private nextId = 1;
  private readonly image = new DurableImage();
  private dirty = new Map<number, Pending>();
  private open = new Map<number, OpenFile>();
  private readonly renames = new RenameLog();

  constructor(readonly dir: string, files: Record<string, string>) {
    const image = new Map<string, Buffer>();
    for (const [path, text] of Object.entries(files)) image.set(this.resolve(path), Buffer.from(text));
    this.install(image, [dir]);
  }

  /** Bumped whenever the durable image changes (an fsync that wrote something, a directory fsync that changed entries, a user save, a crash). */
  get durableVersion(): number { return this.image.version; }

  resolve(path: string): string { return posix.resolve(this.dir, path); }

  /** The I/O error armed for the current worker step, if any (the world arms and disarms it). */
  readonly faults = new IoFaultSlot();

  // ---- the process-facing operations (each is one step; the caller records it) ----

  openFile(path: string, flags: string, owner: number): OpenFile {
    this.faults.failIfArmed('open', this.resolve(path));
    return this.openUnchecked(path, flags, owner);
  }

  private openUnchecked(path: string, flags: string, owner: number): OpenFile {
    const abs = this.resolve(path);
    const creates = flags !== 'r' && flags !== 'r+' && !this.vol.existsSync(abs);
    const fd = this.vol.openSync(abs, flags) as number;
    const stats = this.vol.fstatSync(fd);
    const ino = creates ? this.fresh(Number(stats.ino)) : this.id(Number(stats.ino));
    const isDirectory = stats.isDirectory();
    if (!this.image.kinds.has(ino)) this.image.kinds.set(ino, isDirectory ? 'dir' : 'file');
    // A truncation: unsynced appends are gone from the file; durable bytes are replaced at the next fsync.
    if (!isDirectory && !creates && flags === 'w') this.dirty.set(ino, this.image.length(ino) > 0 ? 'rewrite' : { appends: [] });
    const file: OpenFile = { fd, ino, path: abs, isDirectory, append: flags.startsWith('a'), owner };
    this.open.set(fd, file);
    return file;
  }

  handle(fd: number): OpenFile {
    const file = this.open.get(fd);
    if (file) return file;
    throw Object.assign(new Error('EBADF: bad file descriptor'), { code: 'EBADF' });
  }

  /** replace: the file becomes `data` (FileHandle.writeFile on a handle not opened for append). A short write stores a prefix, then fails. */
  handleWrite(fd: number, data: Uint8Array, mode: 'append' | 'replace'): void {
    const file = this.handle(fd);
    const fault = data.length > 0 ? this.faults.pending : undefined;
    const stored = fault ? Math.min(fault.writtenBytes ?? 0, data.length - 1) : data.length;
    if (fault) this.faults.take(`write to ${file.path} stored ${stored} of ${data.length} bytes and failed`);
    const bytes = Buffer.from(data.subarray(0, stored));
    if (mode === 'replace' && !file.append) {
      this.vol.ftruncateSync(fd, 0);
      this.vol.writeSync(fd, bytes, 0, bytes.length, 0);
      this.markRewrite(file.ino, bytes);
    } else if (bytes.length > 0) {
      const size = Number(this.vol.fstatSync(fd).size);
      this.vol.writeSync(fd, bytes, 0, bytes.length, file.append ? null : size);
      this.markAppend(file.ino, bytes);
    }
    if (fault) throw ioError(fault.error, 'write');
  }

  handleRead(fd: number): Buffer {
    const file = this.handle(fd);
    this.faults.failIfArmed('read', file.path);
    return this.contents(fd);
  }

  private contents(fd: number): Buffer {
    const size = Number(this.vol.fstatSync(fd).size);
    const buffer = Buffer.alloc(size);
    this.vol.readSync(fd, buffer, 0, size, 0);
    return buffer;
  }

  /** fsync: a file's bytes, or a directory's entries, become durable. A failed one drops the file's unsynced writes from writeback. */
  handleSync(fd: number): void {
    const file = this.handle(fd);
    if (file.isDirectory) {
      this.faults.failIfArmed('fsync', file.path);
      this.syncDirectory(file.ino, file.path);
      return;
    }
    const pending = this.dirty.get(file.ino);
    const fault = this.faults.take(`fsync of ${file.path} failed; its unsynced writes stay visible and will never be durable (a later fsync succeeds)`);
    if (fault) {
      if (pending === 'rewrite') this.dirty.set(file.ino, { appends: [], droppedBytes: Number(this.vol.fstatSync(fd).size), truncated: true });
      else if (pending) this.dirty.set(file.ino, { appends: [], droppedBytes: (pending.droppedBytes ?? 0) + pending.appends.reduce((n, b) => n + b.length, 0), truncated: pending.truncated ?? false });
      throw ioError(fault.error, 'fsync');
    }
    if (pending === undefined) return;
    if (pending === 'rewrite') {
      this.image.setBytes(file.ino, this.contents(fd));
    } else {
      // Writes dropped by a failed fsync stay dropped until an append reaches the disk past them.
      if (pending.appends.length === 0) return;
      this.image.setBytes(file.ino, extended(this.image.bytes(file.ino), pending, pending.appends));
      // Written with the appends, checked at the fsync: the durable image is exactly the file's size.
      invariant(this.image.length(file.ino) === Number(this.vol.fstatSync(fd).size), `${file.path}: durable bytes differ from the file's size after fsync`);
    }
    this.dirty.delete(file.ino);
  }

  handleClose(fd: number): void {
    const file = this.handle(fd);
    this.open.delete(fd);
    this.vol.closeSync(fd);
    const fault = this.faults.take(`close of ${file.path} failed (the handle is released)`);
    if (fault) throw ioError(fault.error, 'close');
  }

  closeOwnedBy(owner: number): void {
    for (const file of [...this.open.values()]) if (file.owner === owner) this.closeQuietly(file.fd);
  }

  private closeQuietly(fd: number): void {
    this.open.delete(fd);
    this.vol.closeSync(fd);
  }

  /** fs.appendFile (flag 'a', mode append) and fs.writeFile (flag 'w' or 'wx', mode replace): open, write, close. */
  writeWhole(path: string, data: Uint8Array, flag: 'a' | 'w' | 'wx', owner: number): void {
    const file = this.openUnchecked(path, flag, owner);
    try {
      this.handleWrite(file.fd, data, flag === 'a' ? 'append' : 'replace');
    } finally {
      this.closeQuietly(file.fd);
    }
  }

  readFile(path: string): Buffer {
    this.faults.failIfArmed('read', this.resolve(path));
    return this.vol.readFileSync(this.resolve(path)) as Buffer;
  }

  // Entries change in the page cache; they become durable at an fsync of the directory (a move across folders: of either one).
  rename(from: string, to: string): void {
    const [source, target] = [this.resolve(from), this.resolve(to)];
    this.faults.failIfArmed('rename', source);
    const ids = [source, posix.dirname(source), posix.dirname(target)].map((p) => (this.vol.existsSync(p) ? this.id(Number(this.vol.statSync(p).ino)) : -1));
    this.vol.renameSync(source, target);
    const [child, fromDir, toDir] = ids as [number, number, number];
    this.renames.note({ child, fromDir, fromName: posix.basename(source), toDir, toName: posix.basename(target) });
  }
  link(existing: string, to: string): void {
    this.faults.failIfArmed('link', this.resolve(existing));
    this.vol.linkSync(this.resolve(existing), this.resolve(to));
  }
  unlink(path: string): void {
    this.faults.failIfArmed('unlink', this.resolve(path));
    this.vol.unlinkSync(this.resolve(path));
  }

  mkdir(path: string, recursive: boolean): void {
    const abs = this.resolve(path);
    this.faults.failIfArmed('mkdir', abs);
    const creates = !this.vol.existsSync(abs);
    this.vol.mkdirSync(abs, { recursive });
    const ino = Number(this.vol.statSync(abs).ino);
    this.image.kinds.set(creates ? this.fresh(ino) : this.id(ino), 'dir');
  }

  readdir(path: string): string[] {
    this.faults.failIfArmed('scandir', this.resolve(path));
    return this.entryNames(this.resolve(path));
  }

  private entryNames(abs: string): string[] { return (this.vol.readdirSync(abs) as string[]).map(String).sort(); }

  stat(path: string): { size: number; isFile(): boolean; isDirectory(): boolean } {
    this.faults.failIfArmed('stat', this.resolve(path));
    const stats = this.vol.statSync(this.resolve(path));
    const isDirectory = stats.isDirectory();
    return { size: Number(stats.size), isFile: () => !isDirectory, isDirectory: () => isDirectory };
  }

  /**
   * The user saves a file in place (same inode when it exists), then fsyncs it and its directory:
   * the save is durable at once, and so is every entry of that directory at that moment.
   */
  userWrite(path: string, text: string): void {
    const abs = this.resolve(path);
    const dir = posix.dirname(abs);
    this.vol.mkdirSync(dir, { recursive: true });
    const creates = !this.vol.existsSync(abs);
    this.vol.writeFileSync(abs, text);
    const ino = creates ? this.fresh(Number(this.vol.statSync(abs).ino)) : this.id(Number(this.vol.statSync(abs).ino));
    this.image.kinds.set(ino, 'file');
    this.image.setBytes(ino, Buffer.from(text));
    this.dirty.delete(ino);
    this.syncDirectory(this.id(Number(this.vol.statSync(dir).ino)), dir);
  }

  // ---- crashes ----

  /** A machine crash: the disk falls back to its durable image (see the rules at the top). keep-all changes nothing. */
  crash(shape: CrashShape): CrashDiskReport {
    if (shape.mode === 'keep-all') return { mode: shape.mode, lostData: [], lostEntries: [], restoredEntries: [], torn: [], unsyncedAppends: this.unsyncedAppends() };
    for (const fd of [...this.open.keys()]) this.closeQuietly(fd);
    const { report, image, dirs } = this.imageAfterCrash(shape);
    this.install(image, dirs);
    return report;
  }

  /** What a machine crash now would lose (nothing changes): the disk's own account of what is not yet durable. */
  lossIfCrashedNow(): CrashDiskReport {
    return this.imageAfterCrash({ mode: 'lose-unsynced' }).report;
  }

  /** The paths (relative to the work dir) with unsynced appends, and how many: what a per-file crash may keep a prefix of. */
  unsyncedAppends(): Record<string, number> {
    const counts: Record<string, number> = {};
    this.image.walk((path, ino, kind) => {
      const pending = this.dirty.get(ino);
      if (kind === 'file' && pending !== undefined) counts[posix.relative(this.dir, path)] = pending === 'rewrite' ? 1 : pending.appends.length;
    });
    return counts;
  }

  private imageAfterCrash(shape: CrashShape): { report: CrashDiskReport; image: Map<string, Buffer>; dirs: string[] } {
    const report: CrashDiskReport = { mode: shape.mode, lostData: [], lostEntries: [], restoredEntries: [], torn: [], unsyncedAppends: this.unsyncedAppends() };
    const volatileFiles = volumeFiles(this.vol);
    const image = new Map<string, Buffer>();
    const dirs: string[] = [];
    this.image.walk((path, ino, kind) => {
      if (kind === 'dir') {
        dirs.push(path);
        return;
      }
      const pending = this.dirty.get(ino);
      // A rewrite's new bytes: the file's content now, when the same inode is still at that path.
      const rewritten = pending === 'rewrite' && volatileFiles.has(path) && this.id(Number(this.vol.statSync(path).ino)) === ino;
      const { bytes, torn } = crashBytes(shape, posix.relative(this.dir, path), this.image.bytes(ino), pending, rewritten ? volatileFiles.get(path) : undefined);
      if (torn) report.torn.push({ path, ...torn });
      image.set(path, bytes);
    });
    for (const [path, bytes] of volatileFiles) {
      const after = image.get(path);
      if (after === undefined) report.lostEntries.push(path);
      else if (!after.equals(bytes)) report.lostData.push({ path, bytes: bytesNotAsWritten(bytes, after) });
    }
    for (const path of image.keys()) if (!volatileFiles.has(path)) report.restoredEntries.push(path);
    return { report, image, dirs };
  }

  // ---- views for inspect() and the judge ----

  /** A digest of what processes see: every file's path and bytes (after a machine crash, the durable image). */
  imageDigest(): string { return digestOfFiles(volumeFiles(this.vol)); }

  /** The durable image: what would survive a machine crash now. */
  durableView(): DiskView { return this.image.view(this.dir, (path) => this.resolve(path)); }

  /** What the durable image holds at `path`, as a stamp: equal stamps mean equal bytes (a file) or equal entries (a folder). */
  durableStamp(path: string, kind: 'file' | 'dir'): string { return this.image.stamp(this.resolve(path), kind); }

  /** What processes see now (page cache included). */
  liveView(): DiskView {
    const orElse = <T>(read: () => T, missing: T): T => {
      try {
        return read();
      } catch {
        return missing;
      }
    };
    return { dir: this.dir, readFile: (path) => orElse(() => this.vol.readFileSync(this.resolve(path), 'utf8') as string, undefined), readdir: (path) => orElse(() => this.entryNames(this.resolve(path)), []) };
  }

  // ---- internals ----

  /** Our id for a memfs inode number. */
  private id(ino: number): number {
    let id = this.ids.get(ino);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(ino, id);
    }
    return id;
  }

  /** A new inode: memfs may have reused the number of a deleted one, so it gets a new id. */
  private fresh(ino: number): number {
    const id = this.nextId++;
    this.ids.set(ino, id);
    return id;
  }

  private markAppend(ino: number, bytes: Buffer): void {
    const pending = this.dirty.get(ino);
    if (pending === 'rewrite') return;
    if (pending) pending.appends.push(bytes);
    else this.dirty.set(ino, { appends: [bytes] });
  }

  private markRewrite(ino: number, bytes: Buffer): void {
    if (this.image.length(ino) === 0 && this.dirty.get(ino) === undefined) this.markAppend(ino, bytes);
    else this.dirty.set(ino, 'rewrite');
  }

  private syncDirectory(ino: number, path: string): void {
    const entries = new Map<string, number>();
    for (const name of this.vol.readdirSync(path) as string[]) {
      const stats = this.vol.statSync(posix.join(path, String(name)));
      const child = this.id(Number(stats.ino));
      entries.set(String(name), child);
      if (!this.image.kinds.has(child)) this.image.kinds.set(child, stats.isDirectory() ? 'dir' : 'file');
    }
    this.image.setEntries(ino, entries);
    if (this.renames.settle(ino, this.image.entries)) this.image.version++;
  }

  /** Replaces the volume with `image`, all of it durable. */
  private install(image: Map<string, Buffer>, dirs: string[]): void {
    this.image.clear();
    this.renames.clear();
    this.vol = new Volume();
    this.ids.clear();
    this.dirty.clear();
    this.open.clear();
    for (const dir of dirs) this.vol.mkdirSync(dir, { recursive: true });
    for (const [path, bytes] of image) {
      this.vol.mkdirSync(posix.dirname(path), { recursive: true });
      this.vol.writeFileSync(path, bytes);
    }
    this.image.rootIno = this.id(Number(this.vol.statSync('/').ino));
    invariant(this.dirty.size === 0 && this.open.size === 0, 'a freshly installed disk has unsynced data or open handles');
    this.image.kinds.set(this.image.rootIno, 'dir');
    const record = (dir: string, dirIno: number): void => {
      this.syncDirectory(dirIno, dir);
      for (const [name, child] of this.image.entries.get(dirIno) ?? []) {
        const path = posix.join(dir, name);
        if (this.image.kinds.get(child) === 'dir') record(path, child);
        else this.image.setBytes(child, this.vol.readFileSync(path) as Buffer);
      }
    };
    record('/', this.image.rootIno);
  }
}
