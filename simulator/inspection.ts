/**
 * Inspection: the journal's records read off a disk image through its inspect(), the way the judge
 * sees them. inspect() runs under a turn of its own (what it reaches around the disk view is an
 * escape, charged to "inspect"); with fresh modules it gets an instance of its own, so it reads
 * the disk, not what run() keeps in memory. The view's reads are the simulator's own work.
 */
import type { DiskView, JournalAdapter, JournalRecords } from '../src/contract.js';
import { outsideTurn, setTurn, type Escape, type TurnHolder } from './ambientGuard.js';
import type { Disk } from './disk.js';
import { WORK_DIR } from './scenario.js';

export class Inspection {
  /** Errors thrown by the journal's inspect(), which are journal bugs too. */
  readonly errors: string[] = [];
  private readonly turn: TurnHolder;
  private readonly inspector: JournalAdapter;

  constructor(
    journal: JournalAdapter,
    fresh: (() => JournalAdapter) | undefined,
    private readonly disk: Disk,
    environment: Record<string, string>,
    onEscape: (api: string) => Escape,
  ) {
    this.turn = { simulated: { pid: 1, cwd: WORK_DIR, env: { ...environment } }, onEscape, exit: () => {} };
    this.inspector = journal;
    if (fresh) {
      try {
        this.inspector = this.underTurn(fresh);
      } catch (error) {
        this.inspector = { name: journal.name, run: async () => {}, inspect: () => { throw error; } };
      }
    }
  }

  /** The journal's records as its inspect() reads them from the durable or the visible image. */
  read(image: 'durable' | 'visible'): JournalRecords {
    const disk = image === 'durable' ? this.disk.durableView() : this.disk.liveView();
    // memfs stamps access times on a read: the simulator's work, not the journal's.
    const view: DiskView = { dir: disk.dir, readFile: (path) => outsideTurn(() => disk.readFile(path)), readdir: (path) => outsideTurn(() => disk.readdir(path)) };
    try {
      return this.underTurn(() => this.inspector.inspect(view));
    } catch (error) {
      this.errors.push(error instanceof Error ? error.message : String(error));
      return {};
    }
  }

  private underTurn<T>(read: () => T): T {
    setTurn(this.turn);
    try {
      return read();
    } finally {
      setTurn(null);
    }
  }
}
