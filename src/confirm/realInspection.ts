/**
 * The journal's inspect() in a confirmation (realRun.ts), with its own compiled instance: on the real
 * folder (what a process reads), or on the disk model's durable image when the workers are traced
 * (what would survive a machine crash). What it threw and what normalizing its records found are
 * kept in `errors` for the report, and it reads no records then.
 *
 * A database inspect() opens (better-sqlite3's `new Database(file, { readonly: true })`, node:sqlite's
 * `new DatabaseSync(...)`) is served on the image being read, as inside a simulation
 * (simulator/sqlite/imageVfs.ts): SQLite's own recovery runs over a copy of that image's bytes —
 * the durable image's, so a WAL's unsynced frames are not read back — and nothing is written to
 * the real folder. Its relative names resolve in the work folder. node:sqlite is served only where
 * its module is guarded: runForReal guards it in the confirming process (realRun.ts).
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import type { DiskView, JournalAdapter } from '../../model/contract/contract.js';
import type { Records } from '../../model/evidence.js';
import { normalizeRecords } from '../../model/records.js';
import { NOT_SERVED, runAsTurn, type TurnHolder } from '../../simulator/sandbox/ambientGuard.js';
import { inspectServe } from '../../simulator/simulate.js';
import type { StoreCore } from '../../simulator/store/store.js';
import type { ImageBytes } from '../../simulator/world/inspection.js';
import type { RealDisk } from './realDisk.js';

export interface RealInspection {
  /** The journal's records in the real folder (what a process reads), or on `on` (the model's durable image). */
  inspect: (on?: DiskView) => Records;
  /** The records that would survive a machine crash now: the model's durable image, traced; the real folder, untraced. */
  inspectDurable: () => Records;
  /** Traced: the records on the model's durable image as it stands, without reading the logs' new calls (while the replay applies them). */
  durableNow: () => Records;
  /** What inspect() threw, and the problems normalizing its records found. */
  errors: string[];
}

/** The real folder's files as bytes, for a database inspect() opens there. */
export function realFolderBytes(dir: string): ImageBytes {
  return {
    resolve: (path) => posix.resolve(dir, path),
    readBytes: (path) => {
      try {
        return readFileSync(posix.resolve(dir, path));
      } catch {
        return undefined;
      }
    },
  };
}

/** The disk model's durable image as bytes. */
export function durableBytes(realDisk: RealDisk): ImageBytes {
  return { resolve: (path) => realDisk.disk.resolve(path), readBytes: (path) => realDisk.disk.bytesOn('durable', path) };
}

/** A turn for inspect() in the confirming process: a database it opens is served on `image`; every other call is the real one. */
function inspectTurn(dir: string, image: ImageBytes): TurnHolder {
  return {
    simulated: { pid: process.pid, cwd: dir, env: { ...process.env } as Record<string, string> },
    onEscape: (api) => ({ api, pid: -1, incarnation: 0, message: '' }),
    exit: () => {},
    serve: (api, args, _thisArg, newTarget, real) => {
      const served = inspectServe(api, image, args, newTarget);
      return served === NOT_SERVED ? real() : served;
    },
  };
}

export function realInspection(journal: JournalAdapter, view: DiskView, realDisk: RealDisk | undefined, storeCore: StoreCore): RealInspection {
  const errors: string[] = [];
  const folder = realFolderBytes(view.dir);
  const read = (on: DiskView, image: ImageBytes): Records => {
    try {
      const { records, problems } = runAsTurn(inspectTurn(view.dir, image), () => normalizeRecords(journal.inspect(on, storeCore.view()), journal.states));
      errors.push(...problems);
      return records;
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
      return {};
    }
  };
  const inspect = (on: DiskView = view): Records => read(on, on === view || !realDisk ? folder : durableBytes(realDisk));
  const inspectDurable = (): Records => {
    if (!realDisk) return inspect();
    realDisk.catchUp();
    return durableNow();
  };
  const durableNow = (): Records => (realDisk ? read(realDisk.disk.durableView(), durableBytes(realDisk)) : inspect());
  return { inspect, inspectDurable, durableNow, errors };
}
