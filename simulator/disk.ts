/**
 * Disk: a crash-consistent virtual disk, memfs underneath.
 *
 * Durability rules (what survives a machine crash):
 * - memfs holds what processes see (the page cache). Written data is volatile until an fsync of a
 *   handle on that file; directory entries (create, rename, link, unlink, mkdir) until an fsync of
 *   a handle on the parent directory. Then the file's bytes, or the directory's entries, are durable.
 *   A rename across folders is atomic: an fsync of either folder makes it durable on both sides.
 *   Opening with 'w' truncates: the file's unsynced appends are gone, not just hidden.
 * - Crash modes: keep-all (a process kill: nothing is lost); lose-unsynced (the disk returns to its
 *   durable image); torn-tail and torn-write (what they leave of each file: tornBytes.ts).
 * - The user's edits are saved in place and durably (an editor that fsyncs the file and its directory).
 * Durable state is kept incrementally (chunks, entry maps keyed by inode ids of our own, fresh at
 * every creation: memfs reuses deleted inodes' numbers), materialised at a crash or a view's read.
 */
import { Volume } from 'memfs';
import { posix } from 'node:path';
import type { DiskView } from '../src/contract.js';
import { invariant } from './invariant.js';
import type { CrashDiskReport } from './runRecords.js';
import { RenameLog } from './renameLog.js';
import { tornBytes, type Pending } from './tornBytes.js';
import type { CrashMode } from './scenario.js';


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
  private durableEntries = new Map<number, Map<string, number>>();
  private durableData = new Map<number, Buffer[]>();
  private kinds = new Map<number, 'file' | 'dir'>();
  private dirty = new Map<number, Pending>();
  private open = new Map<number, OpenFile>();
  private rootIno = 0;
  private readonly renames = new RenameLog();
  /** Bumped whenever the durable image changes (an fsync that wrote something, a directory fsync that changed entries, a user save, a crash). */
  durableVersion = 0;
  /** Per inode: the durable version at which its durable bytes last changed. */
  private dataVersion = new Map<number, number>();

  constructor(readonly dir: string, files: Record<string, string>) {
    const image = new Map<string, Buffer>();
    for (const [path, text] of Object.entries(files)) image.set(this.resolve(path), Buffer.from(text));
    this.install(image, [dir]);
  }

  resolve(path: string): string {
    return posix.resolve(this.dir, path);
  }

  // ---- the process-facing operations (each is one step; the caller records it) ----

  openFile(path: string, flags: string, owner: number): OpenFile {
    const abs = this.resolve(path);
    const creates = flags !== 'r' && flags !== 'r+' && !this.vol.existsSync(abs);
    const fd = this.vol.openSync(abs, flags) as number;
    const stats = this.vol.fstatSync(fd);
    const ino = creates ? this.fresh(Number(stats.ino)) : this.id(Number(stats.ino));
    const isDirectory = stats.isDirectory();
    if (!this.kinds.has(ino)) this.kinds.set(ino, isDirectory ? 'dir' : 'file');
    // A truncation: unsynced appends are gone from the file; durable bytes are replaced at the next fsync.
    if (!isDirectory && !creates && flags === 'w') this.dirty.set(ino, this.durableLength(ino) > 0 ? 'rewrite' : { appends: [] });
    const file: OpenFile = { fd, ino, path: abs, isDirectory, append: flags.startsWith('a'), owner };
    this.open.set(fd, file);
    return file;
  }

  handle(fd: number): OpenFile {
    const file = this.open.get(fd);
    if (file) return file;
    throw Object.assign(new Error('EBADF: bad file descriptor'), { code: 'EBADF' });
  }

  /** replace: the file becomes `data` (FileHandle.writeFile on a handle not opened for append). */
  handleWrite(fd: number, data: Uint8Array, mode: 'append' | 'replace'): void {
    const file = this.handle(fd);
    const bytes = Buffer.from(data);
    if (mode === 'replace' && !file.append) {
      this.vol.ftruncateSync(fd, 0);
      this.vol.writeSync(fd, bytes, 0, bytes.length, 0);
      this.markRewrite(file.ino, bytes);
      return;
    }
    const size = Number(this.vol.fstatSync(fd).size);
    this.vol.writeSync(fd, bytes, 0, bytes.length, file.append ? null : size);
    this.markAppend(file.ino, bytes);
  }

  handleRead(fd: number): Buffer {
    const size = Number(this.vol.fstatSync(fd).size);
    const buffer = Buffer.alloc(size);
    this.vol.readSync(fd, buffer, 0, size, 0);
    return buffer;
  }

  /** fsync: a file's bytes, or a directory's entries, become durable. */
  handleSync(fd: number): void {
    const file = this.handle(fd);
    if (file.isDirectory) {
      this.syncDirectory(file.ino, file.path);
      return;
    }
    const pending = this.dirty.get(file.ino);
    if (pending === undefined) return;
    this.dataVersion.set(file.ino, ++this.durableVersion);
    if (pending === 'rewrite') {
      this.durableData.set(file.ino, [this.handleRead(fd)]);
    } else {
      const chunks = this.durableData.get(file.ino) ?? [];
      chunks.push(...pending.appends);
      this.durableData.set(file.ino, chunks);
      // Written with the appends, checked at the fsync: the durable image is exactly the file.
      invariant(this.durableLength(file.ino) === Number(this.vol.fstatSync(fd).size), `${file.path}: durable bytes differ from the file's size after fsync`);
    }
    this.dirty.delete(file.ino);
  }

  handleClose(fd: number): void {
    this.handle(fd);
    this.open.delete(fd);
    this.vol.closeSync(fd);
  }

  closeOwnedBy(owner: number): void {
    for (const file of [...this.open.values()]) if (file.owner === owner) this.handleClose(file.fd);
  }

  /** fs.appendFile (flag 'a', mode append) and fs.writeFile (flag 'w' or 'wx', mode replace): open, write, close. */
  writeWhole(path: string, data: Uint8Array, flag: 'a' | 'w' | 'wx', owner: number): void {
    const file = this.openFile(path, flag, owner);
    try {
      this.handleWrite(file.fd, data, flag === 'a' ? 'append' : 'replace');
    } finally {
      this.handleClose(file.fd);
    }
  }

  readFile(path: string): Buffer {
    return this.vol.readFileSync(this.resolve(path)) as Buffer;
  }

  // Entries change in the page cache; they become durable at an fsync of the directory (a move across folders: of either one).
  rename(from: string, to: string): void {
    const [source, target] = [this.resolve(from), this.resolve(to)];
    const ids = [source, posix.dirname(source), posix.dirname(target)].map((p) => (this.vol.existsSync(p) ? this.id(Number(this.vol.statSync(p).ino)) : -1));
    this.vol.renameSync(source, target);
    const [child, fromDir, toDir] = ids as [number, number, number];
    this.renames.note({ child, fromDir, fromName: posix.basename(source), toDir, toName: posix.basename(target) });
  }
  link(existing: string, to: string): void { this.vol.linkSync(this.resolve(existing), this.resolve(to)); }
  unlink(path: string): void { this.vol.unlinkSync(this.resolve(path)); }

  mkdir(path: string, recursive: boolean): void {
    const abs = this.resolve(path);
    const creates = !this.vol.existsSync(abs);
    this.vol.mkdirSync(abs, { recursive });
    const ino = Number(this.vol.statSync(abs).ino);
    this.kinds.set(creates ? this.fresh(ino) : this.id(ino), 'dir');
  }

  readdir(path: string): string[] {
    return (this.vol.readdirSync(this.resolve(path)) as string[]).map(String).sort();
  }

  stat(path: string): { size: number; isFile(): boolean; isDirectory(): boolean } {
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
    this.kinds.set(ino, 'file');
    this.durableData.set(ino, [Buffer.from(text)]);
    this.dataVersion.set(ino, ++this.durableVersion);
    this.dirty.delete(ino);
    this.syncDirectory(this.id(Number(this.vol.statSync(dir).ino)), dir);
  }

  // ---- crashes ----

  /** A machine crash: the disk falls back to its durable image (see the rules at the top). keep-all changes nothing. */
  crash(mode: CrashMode, tornKeepBytes: number | undefined): CrashDiskReport {
    if (mode === 'keep-all') return { mode, lostData: [], lostEntries: [], restoredEntries: [], torn: [] };
    for (const fd of [...this.open.keys()]) this.handleClose(fd);
    const { report, image, dirs } = this.imageAfterCrash(mode, tornKeepBytes);
    this.install(image, dirs);
    return report;
  }

  /** What a machine crash now would lose (nothing changes): the disk's own account of what is not yet durable. */
  lossIfCrashedNow(): CrashDiskReport {
    return this.imageAfterCrash('lose-unsynced', undefined).report;
  }

  private imageAfterCrash(mode: CrashMode, tornKeepBytes: number | undefined): { report: CrashDiskReport; image: Map<string, Buffer>; dirs: string[] } {
    const report: CrashDiskReport = { mode, lostData: [], lostEntries: [], restoredEntries: [], torn: [] };
    const volatileFiles = this.walkVolatile();
    const image = new Map<string, Buffer>();
    const dirs: string[] = [];
    this.walkDurable(this.rootIno, '/', (path, ino, kind) => {
      if (kind === 'dir') {
        dirs.push(path);
        return;
      }
      const pending = this.dirty.get(ino);
      // A rewrite's new bytes: the file's content now, when the same inode is still at that path.
      const rewritten = pending === 'rewrite' && volatileFiles.has(path) && this.id(Number(this.vol.statSync(path).ino)) === ino;
      const { bytes, torn } = tornBytes(mode, this.durableBytes(ino), pending, rewritten ? volatileFiles.get(path) : undefined, tornKeepBytes);
      if (torn) report.torn.push({ path, ...torn });
      image.set(path, bytes);
    });
    for (const [path, bytes] of volatileFiles) {
      const after = image.get(path);
      if (after === undefined) report.lostEntries.push(path);
      else if (!after.equals(bytes)) report.lostData.push({ path, bytes: Math.max(0, bytes.length - after.length) });
    }
    for (const path of image.keys()) if (!volatileFiles.has(path)) report.restoredEntries.push(path);
    return { report, image, dirs };
  }

  // ---- views for inspect() and the judge ----

  /** The durable image: what would survive a machine crash now. */
  durableView(): DiskView {
    return {
      dir: this.dir,
      readFile: (path) => {
        const ino = this.durableLookup(this.resolve(path));
        return ino !== undefined && this.kinds.get(ino) === 'file' ? this.durableBytes(ino).toString('utf8') : undefined;
      },
      readdir: (path) => {
        const ino = this.durableLookup(this.resolve(path));
        return ino === undefined ? [] : [...(this.durableEntries.get(ino)?.keys() ?? [])].sort();
      },
    };
  }

  /** What the durable image holds at `path`, as a stamp: equal stamps mean equal bytes (a file) or equal entries (a folder). */
  durableStamp(path: string, kind: 'file' | 'dir'): string {
    const ino = this.durableLookup(this.resolve(path));
    if (ino === undefined) return '-';
    if (kind === 'file') return `${ino}:${this.dataVersion.get(ino) ?? 0}`;
    return [...(this.durableEntries.get(ino) ?? [])].map(([name, child]) => `${name}=${child}`).join('/');
  }

  /** What processes see now (page cache included). */
  liveView(): DiskView {
    const orElse = <T>(read: () => T, missing: T): T => {
      try {
        return read();
      } catch {
        return missing;
      }
    };
    return { dir: this.dir, readFile: (path) => orElse(() => this.vol.readFileSync(this.resolve(path), 'utf8') as string, undefined), readdir: (path) => orElse(() => this.readdir(path), []) };
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
    if (this.durableLength(ino) === 0 && this.dirty.get(ino) === undefined) this.markAppend(ino, bytes);
    else this.dirty.set(ino, 'rewrite');
  }

  private durableLength(ino: number): number {
    return (this.durableData.get(ino) ?? []).reduce((n, chunk) => n + chunk.length, 0);
  }

  private durableBytes(ino: number): Buffer {
    const chunks = this.durableData.get(ino) ?? [];
    if (chunks.length <= 1) return chunks[0] ?? Buffer.alloc(0);
    const joined = Buffer.concat(chunks);
    this.durableData.set(ino, [joined]);
    return joined;
  }

  private syncDirectory(ino: number, path: string): void {
    const entries = new Map<string, number>();
    for (const name of this.vol.readdirSync(path) as string[]) {
      const stats = this.vol.statSync(posix.join(path, String(name)));
      const child = this.id(Number(stats.ino));
      entries.set(String(name), child);
      if (!this.kinds.has(child)) this.kinds.set(child, stats.isDirectory() ? 'dir' : 'file');
    }
    const before = this.durableEntries.get(ino);
    if (before === undefined || before.size !== entries.size || [...entries].some(([name, child]) => before.get(name) !== child)) this.durableVersion++;
    this.durableEntries.set(ino, entries);
    if (this.renames.settle(ino, this.durableEntries)) this.durableVersion++;
  }

  private durableLookup(abs: string): number | undefined {
    let ino: number | undefined = this.rootIno;
    for (const part of abs.split('/').filter(Boolean)) {
      ino = this.durableEntries.get(ino)?.get(part);
      if (ino === undefined) return undefined;
    }
    return ino;
  }

  private walkDurable(ino: number, path: string, visit: (path: string, ino: number, kind: 'file' | 'dir') => void): void {
    for (const [name, child] of this.durableEntries.get(ino) ?? []) {
      const childPath = posix.join(path, name);
      const kind = this.kinds.get(child) ?? 'file';
      visit(childPath, child, kind);
      if (kind === 'dir') this.walkDurable(child, childPath, visit);
    }
  }

  private walkVolatile(): Map<string, Buffer> {
    const files = new Map<string, Buffer>();
    const walk = (dir: string): void => {
      for (const name of this.vol.readdirSync(dir) as string[]) {
        const path = posix.join(dir, String(name));
        if (this.vol.statSync(path).isDirectory()) walk(path);
        else files.set(path, this.vol.readFileSync(path) as Buffer);
      }
    };
    walk('/');
    return files;
  }

  /** Replaces the volume with `image`, all of it durable. */
  private install(image: Map<string, Buffer>, dirs: string[]): void {
    this.durableVersion++;
    this.renames.clear();
    this.vol = new Volume();
    this.ids.clear();
    this.durableEntries.clear();
    this.durableData.clear();
    this.kinds.clear();
    this.dirty.clear();
    this.open.clear();
    for (const dir of dirs) this.vol.mkdirSync(dir, { recursive: true });
    for (const [path, bytes] of image) {
      this.vol.mkdirSync(posix.dirname(path), { recursive: true });
      this.vol.writeFileSync(path, bytes);
    }
    this.rootIno = this.id(Number(this.vol.statSync('/').ino));
    invariant(this.dirty.size === 0 && this.open.size === 0, 'a freshly installed disk has unsynced data or open handles');
    this.kinds.set(this.rootIno, 'dir');
    const record = (dir: string, dirIno: number): void => {
      this.syncDirectory(dirIno, dir);
      for (const [name, child] of this.durableEntries.get(dirIno) ?? []) {
        const path = posix.join(dir, name);
        if (this.kinds.get(child) === 'dir') record(path, child);
        else this.durableData.set(child, [this.vol.readFileSync(path) as Buffer]);
      }
    };
    record('/', this.rootIno);
  }
}

