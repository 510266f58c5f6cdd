/**
 * Inspection: the journal's records read off a disk image through its inspect(), the way the judge
 * sees them. inspect() runs under a turn of its own (a clock read or a timer is served inertly,
 * sandbox/pureServe.ts; any other reach around the disk view is an escape, charged to "inspect"); with fresh modules it gets an instance of its own, so it reads
 * the disk, not what run() keeps in memory. The view's reads are the simulator's own work.
 * Its answer is normalized (model/records.ts). The durable image's answer is cached with what
 * inspect() read (each file's durable stamp, each folder's entries): asking again costs nothing
 * until one of those changed — an fsync of a lock file or a candidate does not re-run inspect().
 * (inspect() must be a function of what it reads; a journal whose inspect() is not is judged on
 * its first answer for the same bytes.)
 */
import type { Records } from '../../model/evidence.js';
import { HistoryObserver } from '../../model/observedHistory.js';
import { normalizeRecords } from '../../model/records.js';
import type { StateNames } from '../../model/stateNames.js';
import type { DiskView, StoreView, JournalAdapter } from '../../model/contract/contract.js';
import { atVirtualTime, NOT_SERVED, outsideTurn, ownThrown, runAsTurn, type Escape, type TurnHolder } from '../sandbox/ambientGuard.js';
import type { Disk } from '../disk/disk.js';
import { WORK_DIR } from '../scenario/scenario.js';
import { pureServe } from '../sandbox/pureServe.js';
import { inspectCacheOf, type InspectCache, type ReadContent } from './inspectCache.js';

interface Read {
  path: string;
  kind: 'file' | 'dir';
}

/** The image inspect() is reading, as bytes: what a database opened inside inspect() reads (sqlite/imageVfs.ts). */
export interface ImageBytes {
  resolve(path: string): string;
  readBytes(path: string): Uint8Array | undefined;
}

/** An API inspect() may be served on the image it reads (better-sqlite3's `new Database(...)`, node:sqlite's `new DatabaseSync(...)`), or NOT_SERVED. */
export type InspectServe = (api: string, image: ImageBytes, args: readonly unknown[], newTarget: unknown) => unknown;

export class Inspection {
  /** Errors thrown by the journal's inspect(), which are journal bugs too. */
  readonly errors: string[] = [];
  /** What was wrong with inspect()'s answers (model/records.ts): a record the judge cannot read is never judged. */
  readonly malformed: string[] = [];
  /** Whether the last read failed (inspect() threw): its empty answer is no observation. */
  failed = false;
  /** storeChanges: the store's change count when inspect() last read it; undefined when it did not. */
  private cached: { version: number; reads: Read[]; stamps: string[]; records: Records; failed: boolean; storeChanges: number | undefined } | undefined;
  /** Builds each key's observed states from the durable image after every change (model/observedHistory.ts). */
  readonly observer = new HistoryObserver();
  /** The durable image's version and the store's change count when the durable records were last observed. */
  private observedDisk = -1;
  private observedStore = -1;
  private lastObserved: Records | undefined;
  private readonly turn: TurnHolder;
  /** The image being read right now, as bytes (while inspect() runs). */
  private image: ImageBytes | undefined;
  /** The thread's answers for this journal, across runs (inspectCache.ts). */
  private readonly shared: InspectCache;
  /** Calls inspect() made that the sandbox served (beside a database on the image) or refused: an answer read with one is not kept across runs. */
  private sandboxCalls = 0;
  private readonly inspector: JournalAdapter;
  /** The journal's own state names, when it maps them (model/stateNames.ts): its answers are read through them. */
  private readonly states: StateNames | undefined;

  /** The instance of the journal's modules inspect() reads through (its own when `fresh` was given). */
  get instance(): JournalAdapter {
    return this.inspector;
  }

  constructor(
    journal: JournalAdapter,
    fresh: (() => JournalAdapter) | undefined,
    private readonly disk: Disk,
    private readonly store: { view(): StoreView; readonly changes: number },
    environment: Record<string, string>,
    onEscape: (api: string) => Escape,
    /** The virtual time, as the clock reads it: what a clock read inside inspect() (or its module's load) gives. */
    private readonly epochMs: () => number,
    inspectServe?: InspectServe,
  ) {
    const pure = pureServe(epochMs);
    const serve: NonNullable<TurnHolder['serve']> = (api, args, thisArg, newTarget, real) => {
      if (inspectServe !== undefined && this.image !== undefined) {
        const served = inspectServe(api, this.image, args, newTarget);
        if (served !== NOT_SERVED) return served;
      }
      this.sandboxCalls++;
      return pure(api, args, thisArg, newTarget, real);
    };
    const escape = (api: string): Escape => (this.sandboxCalls++, onEscape(api));
    // Its own listeners: what a module does with process.on() as it loads here stays here.
    this.turn = { simulated: { pid: 1, cwd: WORK_DIR, env: { ...environment }, listeners: new Map() }, onEscape: escape, exit: () => {}, serve };
    this.shared = inspectCacheOf(fresh ?? journal, environment);
    this.inspector = journal;
    this.states = journal.states;
    if (fresh) {
      try {
        this.inspector = this.underTurn(fresh);
      } catch (error) {
        this.inspector = { name: journal.name, run: async () => {}, inspect: () => { throw error; } };
      }
    }
  }

  /** Reads the durable image when it changed since the last look (at trace position `seq`), feeding the observed histories. */
  observeDurable(seq: number): Records {
    const records = this.read('durable');
    if (this.disk.durableVersion !== this.observedDisk || this.store.changes !== this.observedStore) {
      this.observedDisk = this.disk.durableVersion;
      this.observedStore = this.store.changes;
      // The same answer as last time (nothing inspect() reads changed) adds nothing to observe.
      if (!this.failed && records !== this.lastObserved) this.observer.observe(records, seq, 'durable');
      this.lastObserved = records;
    }
    return records;
  }

  /** Both images, observed: after a crash (a machine crash first takes back what was only visible) or at the end. */
  observeBoth(seq: number, machineCrash: boolean): { durable: Records; visible: Records } {
    if (machineCrash) this.observer.machineCrash();
    const durable = this.observeDurable(seq);
    if (machineCrash) return { durable, visible: durable };
    const visible = this.read('visible');
    if (!this.failed) this.observer.observe(visible, seq, 'visible');
    return { durable, visible };
  }

  /**
   * The visible image's records for evidence alone: an inspect() that throws here is neither a
   * journal error nor a failed observation (undefined), and the durable cache is left alone.
   */
  peek(): Records | undefined {
    const errors = this.errors.length;
    const malformed = this.malformed.length;
    const failed = this.failed;
    const records = this.read('visible');
    const ok = !this.failed;
    this.errors.length = errors;
    this.malformed.length = malformed;
    this.failed = failed;
    return ok ? records : undefined;
  }

  /** The journal's records as its inspect() reads them from the durable or the visible image. */
  read(image: 'durable' | 'visible'): Records {
    if (image === 'durable' && this.cached !== undefined) {
      const cached = this.cached;
      const storeSame = cached.storeChanges === undefined || cached.storeChanges === this.store.changes;
      if (storeSame && (cached.version === this.disk.durableVersion || cached.reads.every((read, i) => this.disk.durableStamp(read.path, read.kind) === cached.stamps[i]))) {
        cached.version = this.disk.durableVersion;
        this.failed = cached.failed;
        return cached.records;
      }
    }
    // An image whose files hold what they held when inspect() last answered cleanly, in this run or another.
    const durableContent: ReadContent = (read) => (read.kind === 'file' ? this.disk.bytesOn('durable', read.path) : this.disk.durableView().readdir(read.path));
    if (image === 'durable') {
      const known = this.shared.lookup(durableContent);
      if (known !== undefined) {
        this.failed = false;
        this.cached = { version: this.disk.durableVersion, reads: known.reads, stamps: known.reads.map((read) => this.disk.durableStamp(read.path, read.kind)), records: known.records, failed: false, storeChanges: undefined };
        return known.records;
      }
    }
    const disk = image === 'durable' ? this.disk.durableView() : this.disk.liveView();
    const reads: Read[] = [];
    const callsBefore = this.sandboxCalls;
    // memfs stamps access times on a read: the simulator's work, not the journal's, at the virtual time.
    const nowMs = this.epochMs();
    const view: DiskView = {
      dir: disk.dir,
      readFile: (path) => (reads.push({ path, kind: 'file' }), outsideTurn(() => atVirtualTime(nowMs, () => disk.readFile(path)))),
      readdir: (path) => (reads.push({ path, kind: 'dir' }), outsideTurn(() => atVirtualTime(nowMs, () => disk.readdir(path)))),
    };
    this.image = {
      resolve: (path) => this.disk.resolve(path),
      readBytes: (path) => (reads.push({ path, kind: 'file' }), outsideTurn(() => atVirtualTime(nowMs, () => this.disk.bytesOn(image, path)))),
    };
    let records: Records = {};
    this.failed = false;
    let storeRead = false;
    const storeView = this.store.view();
    const store: StoreView = { get: (key) => ((storeRead = true), storeView.get(key)), list: (prefix) => ((storeRead = true), storeView.list(prefix)) };
    // The answer, and what inspect() threw, read in its turn: a getter or Proxy of the journal's runs as its code.
    let answer: { normalized: ReturnType<typeof normalizeRecords> } | { error: string };
    try {
      answer = this.underTurn((): typeof answer => {
        try {
          return { normalized: normalizeRecords(this.inspector.inspect(view, store), this.states) };
        } catch (thrown) {
          const error = ownThrown(thrown);
          return { error: error instanceof Error ? error.message : String(error) };
        }
      });
    } finally {
      this.image = undefined;
    }
    if ('normalized' in answer) {
      records = answer.normalized.records;
      for (const problem of answer.normalized.problems) if (!this.malformed.includes(problem)) this.malformed.push(problem);
    } else {
      this.errors.push(answer.error);
      this.failed = true;
    }
    if (image === 'durable' && !this.failed && !storeRead && this.sandboxCalls === callsBefore && 'normalized' in answer && answer.normalized.problems.length === 0) this.shared.keep(reads, durableContent, records);
    if (image === 'durable') this.cached = { version: this.disk.durableVersion, reads, stamps: reads.map((read) => this.disk.durableStamp(read.path, read.kind)), records, failed: this.failed, storeChanges: storeRead ? this.store.changes : undefined };
    return records;
  }

  private underTurn<T>(read: () => T): T {
    return runAsTurn(this.turn, read);
  }
}

/** The contents of `paths` on a disk view (undefined: missing). */
export function filesOn(view: DiskView, paths: readonly string[]): Record<string, string | undefined> {
  return Object.fromEntries(paths.map((path) => [path, view.readFile(path)]));
}
