/**
 * The state under the disk (disk.ts states the model): the memfs volume processes see, the
 * durable image (durableImage.ts), each file's unsynced changes, the open handles, and inode ids of
 * our own; crashes, and the views the judge and inspect() read.
 */
import { createRequire } from 'node:module';
import type { Volume } from 'memfs';
import { entriesAt } from './memfsLookup.js';
import { closeFd } from './memfsCore.js';
import { posix } from 'node:path';
import type { DiskView } from '../../model/contract/contract.js';
import type { CrashShape, Pending } from './crashBytes.js';
import type { DiskFileState } from './diskLane.js';
import { crashImage, type CrashImage } from './crashImage.js';
import { DurableImage, type DurableMeta } from './durableImage.js';
import { invariant, SimulatorInvariantError } from '../invariant.js';
import { RenameLog } from './renameLog.js';
import { emptyLoss, type CrashDiskReport } from './crashReport.js';
import { digestOfFiles, volumeFilePaths, volumeFiles, volumeFolders } from './volumeFiles.js';

/**
 * memfs, loaded on the first disk built: a module-level import would load it (about 40 ms of CPU)
 * in every thread that evaluates this module, the main thread included, which never builds a disk.
 */
let VolumeClass: typeof Volume | undefined;
/** Loads memfs now: a thread that will run journals loads it before it does (a require then is refused there: sandbox/turn.ts). */
export function loadMemfs(): void {
  if (VolumeClass !== undefined) return;
  const memfs = createRequire(import.meta.url)('memfs') as typeof import('memfs') & { Stats: new () => unknown };
  VolumeClass = memfs.Volume;
  StatsClass = memfs.Stats;
}
let StatsClass: (new () => unknown) | undefined;

/** memfs's Stats class, memfs loaded: what statOf hands over, which the served APIs lock (node/simEnv.ts; the disk is below the sandbox). */
export function memfsStats(): new () => unknown {
  loadMemfs();
  return StatsClass as new () => unknown;
}
const newVolume = (): Volume => (loadMemfs(), new (VolumeClass as typeof Volume)());

/**
 * Volumes of finished runs, emptied, for the next disks built in this thread. Building one costs
 * more than its files: memfs's Volume assigns about a hundred closures and four classes to itself,
 * which V8 places in the old generation, and from there they keep the whole volume — every file of
 * the run — alive through every young collection until a full one. A volume is handed to one disk
 * at a time; a disk that gave it back can reach it no more (DiskState.release).
 */
const spareVolumes: Volume[] = [];
const SPARE_VOLUMES_MAX = 4;
/** How many emptied volumes wait for the next disks of this thread (for tests). */
export const spareVolumeCount = (): number => spareVolumes.length;

/** A volume that refuses every use: what a released disk holds. */
const releasedVolume = new Proxy({} as Volume, {
  get: (_target, name) => {
    throw new SimulatorInvariantError(`a disk was used after its run ended (volume.${String(name)})`);
  },
});

/** The simulated process's umask: what a created file's or folder's mode loses. */
export const UMASK = 0o022;
/** The mode open() creates a file with when it names none, before the umask (node:fs's default). */
export const CREATE_MODE = 0o666;

export interface OpenFile {
  fd: number;
  ino: number;
  path: string;
  isDirectory: boolean;
  append: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  /** Where the next read or write through the handle starts. */
  position: number;
  owner: number;
}

export class DiskState {
  protected vol: Volume = spareVolumes.pop() ?? newVolume();
  protected ids = new Map<number, number>();
  protected nextId = 1;
  protected readonly image = new DurableImage();
  protected dirty = new Map<number, Pending>();
  /** Files whose mode or owner changed since their last fsync (chmod, chown): the next fsync makes them durable. */
  protected metaDirty = new Set<number>();
  protected open = new Map<number, OpenFile>();
  protected readonly renames = new RenameLog();

  constructor(readonly dir: string, files: Record<string, string>) {
    const image = new Map<string, Buffer>();
    for (const [path, text] of Object.entries(files)) image.set(this.resolve(path), Buffer.from(text));
    this.install(image, [dir]);
  }

  /**
   * The run is over: its volume is emptied and kept for the next disk this thread builds. Any later
   * use of this disk's volume breaks a simulator invariant. A volume something still watches (a
   * stat watcher, a change listener) or whose limits changed is left to the collector instead.
   */
  release(): void {
    const vol = this.vol;
    if (vol === releasedVolume) return;
    this.vol = releasedVolume;
    this.open.clear();
    const core = vol._core as unknown as { maxFiles: number; changes: { listeners?: { size: number } } };
    const clean = Object.keys((vol as unknown as { statWatchers: object }).statWatchers).length === 0 && core.maxFiles === 10_000 && (core.changes.listeners?.size ?? 0) === 0;
    vol.reset();
    if (clean && spareVolumes.length < SPARE_VOLUMES_MAX) spareVolumes.push(vol);
  }

  /** Bumped whenever the durable image changes (an fsync that wrote something, a directory fsync that changed entries, a user save, a crash). */
  get durableVersion(): number { return this.image.version; }

  /** Resolved paths, remembered: every step resolves its paths several times (a run names few paths). */
  private readonly resolved = new Map<string, string>();
  resolve(path: string): string {
    let abs = this.resolved.get(path);
    if (abs === undefined) {
      abs = posix.resolve(this.dir, path);
      if (this.resolved.size < 4096) this.resolved.set(path, abs);
    }
    return abs;
  }

  // ---- crashes ----

  /** A machine crash: the disk falls back to its durable image (see the rules at the top). keep-all changes nothing. */
  crash(shape: CrashShape): CrashDiskReport {
    if (shape.mode === 'keep-all') return emptyLoss(shape.mode, this.unsyncedAppends());
    for (const fd of [...this.open.keys()]) this.closeQuietly(fd);
    const { report, image, dirs, meta } = this.imageAfterCrash(shape);
    this.install(image, dirs, meta);
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
      if (kind === 'file' && pending !== undefined) counts[posix.relative(this.dir, path)] = typeof pending === 'string' ? 1 : pending.appends.length;
    });
    return counts;
  }

  private imageAfterCrash(shape: CrashShape): CrashImage {
    return crashImage(shape, {
      dir: this.dir,
      durable: this.image,
      pending: (ino) => this.dirty.get(ino),
      volatileFiles: volumeFiles(this.vol),
      inoAt: (path) => this.id(Number(this.vol.statSync(path).ino)),
      unsyncedAppends: this.unsyncedAppends(),
    });
  }

  // ---- views for inspect() and the judge ----

  /** Every file processes see, relative to the work folder. */
  liveFilePaths(): string[] { return volumeFilePaths(this.vol).map((path) => posix.relative(this.dir, path)); }

  /** Everything processes see, as absolute paths: every file with a copy of its bytes, every folder. */
  liveImage(): { files: Map<string, Buffer>; folders: string[] } {
    return { files: new Map([...volumeFiles(this.vol)].map(([path, bytes]) => [path, Buffer.from(bytes)])), folders: volumeFolders(this.vol) };
  }

  /** A digest of what processes see: every file's path and bytes (after a machine crash, the durable image). */
  imageDigest(): string { return digestOfFiles(volumeFiles(this.vol)); }

  /** The durable image: what would survive a machine crash now. */
  durableView(): DiskView { return this.image.view(this.dir, (path) => this.resolve(path)); }

  /** A file's bytes on the durable image (`durable`) or as processes see it; undefined when it is not a file there. */
  bytesOn(image: 'durable' | 'visible', path: string): Buffer | undefined {
    const abs = this.resolve(path);
    if (image === 'durable') {
      const ino = this.image.lookup(abs);
      return ino !== undefined && this.image.kinds.get(ino) === 'file' ? this.image.bytes(ino) : undefined;
    }
    try {
      return Buffer.from(this.vol.readFileSync(abs) as Buffer);
    } catch {
      return undefined;
    }
  }

  /** What the durable image holds at `path`, as a stamp: equal stamps mean equal bytes (a file) or equal entries (a folder). */
  durableStamp(path: string, kind: 'file' | 'dir'): string { return this.image.stamp(this.resolve(path), kind); }

  /**
   * Each file under the work folder: the bytes processes see, the bytes a machine crash would keep,
   * and whether they are the same file with nothing unsynced. Read by stat and from the durable
   * image, never by reading a file (memfs would move its access time) or naming a new inode.
   */
  fileStates(): DiskFileState[] {
    const states = new Map<string, DiskFileState & { ino?: number; durableIno?: number }>();
    const of = (abs: string): DiskFileState & { ino?: number; durableIno?: number } => {
      const path = posix.relative(this.dir, abs);
      let state = states.get(path);
      if (!state) states.set(path, (state = { path, synced: false }));
      return state;
    };
    const walk = (abs: string): void => {
      for (const name of this.entryNames(abs)) {
        const child = posix.join(abs, name);
        const stats = this.vol.statSync(child);
        if (stats.isDirectory()) walk(child);
        else Object.assign(of(child), { visibleBytes: Number(stats.size), ino: this.ids.get(Number(stats.ino)) });
      }
    };
    if (this.vol.existsSync(this.dir)) walk(this.dir);
    this.image.walk((abs, ino, kind) => {
      if (kind === 'file' && abs.startsWith(`${this.dir}/`)) Object.assign(of(abs), { durableBytes: this.image.length(ino), durableIno: ino });
    });
    return [...states.values()]
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .map(({ ino, durableIno, ...state }) => ({ ...state, synced: ino !== undefined && ino === durableIno && !this.dirty.has(ino) && state.visibleBytes === state.durableBytes }));
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
    return { dir: this.dir, readFile: (path) => orElse(() => this.vol.readFileSync(this.resolve(path), 'utf8') as string, undefined), readdir: (path) => orElse(() => this.entryNames(this.resolve(path)), []) };
  }

  protected entryNames(abs: string): string[] { return (this.vol.readdirSync(abs) as string[]).map(String).sort(); }

  protected closeQuietly(fd: number): void {
    this.open.delete(fd);
    closeFd(this.vol, fd);
  }

  // ---- internals ----

  /** Our id for a memfs inode number. */
  protected id(ino: number): number {
    let id = this.ids.get(ino);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(ino, id);
    }
    return id;
  }

  /** A new inode: memfs may have reused the number of a deleted one, so it gets a new id. */
  protected fresh(ino: number): number {
    const id = this.nextId++;
    this.ids.set(ino, id);
    return id;
  }

  protected markAppend(ino: number, bytes: Buffer): void {
    const pending = this.dirty.get(ino);
    if (typeof pending === 'string') return;
    if (pending) pending.appends.push(bytes);
    else this.dirty.set(ino, { appends: [bytes] });
  }

  /** Bytes changed in place: the next fsync writes the whole file; a crash before it keeps old bytes, or whole new blocks (torn-write). */
  protected markOverwrite(ino: number): void {
    if (this.dirty.get(ino) !== 'rewrite') this.dirty.set(ino, 'overwrite');
  }

  protected syncDirectory(ino: number, path: string): void {
    const entries = new Map<string, number>();
    const listed = entriesAt(this.vol, path);
    invariant(listed !== undefined, `${path}: a folder being synced is not a folder`);
    for (const { name, node } of listed) {
      const child = this.id(node.ino);
      entries.set(name, child);
      if (!this.image.kinds.has(child)) this.image.kinds.set(child, node.isDirectory() ? 'dir' : 'file');
    }
    this.image.setEntries(ino, entries);
    if (this.renames.settle(ino, this.image.entries)) this.image.version++;
  }

  /** Replaces the volume's contents with `image`, all of it durable (the volume is emptied, as a new one would be: a Volume costs ~40 µs to build); `meta`: the files' durable modes and owners. */
  private install(image: Map<string, Buffer>, dirs: string[], meta?: Map<string, DurableMeta>): void {
    this.image.clear();
    this.renames.clear();
    this.vol.reset();
    this.ids.clear();
    this.dirty.clear();
    this.metaDirty.clear();
    this.open.clear();
    for (const dir of dirs) this.vol.mkdirSync(dir, { recursive: true, mode: 0o777 & ~UMASK });
    for (const [path, bytes] of image) {
      this.vol.mkdirSync(posix.dirname(path), { recursive: true, mode: 0o777 & ~UMASK });
      this.vol.writeFileSync(path, bytes, { mode: CREATE_MODE & ~UMASK });
    }
    for (const [path, kept] of meta ?? []) {
      this.vol.chmodSync(path, kept.mode & 0o7777);
      this.vol.chownSync(path, kept.uid, kept.gid);
    }
    this.image.rootIno = this.id(Number(this.vol.statSync('/').ino));
    invariant(this.dirty.size === 0 && this.open.size === 0, 'a freshly installed disk has unsynced data or open handles');
    this.image.kinds.set(this.image.rootIno, 'dir');
    const record = (dir: string, dirIno: number): void => {
      this.syncDirectory(dirIno, dir);
      for (const [name, child] of this.image.entries.get(dirIno) ?? []) {
        const path = posix.join(dir, name);
        if (this.image.kinds.get(child) === 'dir') record(path, child);
        else {
          // The bytes just written are the durable ones (memfs copied them): no need to read them back.
          const bytes = image.get(path);
          invariant(bytes !== undefined, `${path}: a file of the installed volume is not in its image`);
          this.image.setBytes(child, bytes);
          const kept = meta?.get(path);
          if (kept !== undefined) this.image.meta.set(child, kept);
        }
      }
    };
    record('/', this.image.rootIno);
  }
}
