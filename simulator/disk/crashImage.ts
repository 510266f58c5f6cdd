/**
 * The disk image a machine crash leaves: every durable folder, and every durable file as its
 * unsynced changes leave it (crashBytes.ts), with the disk's account of what was lost, torn or
 * came back.
 */
import { posix } from 'node:path';
import { bytesNotAsWritten, crashBytes, type CrashShape, type Pending } from './crashBytes.js';
import type { DurableImage, DurableMeta } from './durableImage.js';
import type { CrashDiskReport } from './crashReport.js';
import type { DurabilityGap } from '../../model/evidence.js';

export interface CrashImage {
  report: CrashDiskReport;
  image: Map<string, Buffer>;
  dirs: string[];
  /** The files whose mode and owner were made durable (the others come back with the defaults). */
  meta: Map<string, DurableMeta>;
}

export interface DiskState {
  dir: string;
  durable: DurableImage;
  pending: (ino: number) => Pending | undefined;
  /** Every file processes see now, with its bytes. */
  volatileFiles: Map<string, Buffer>;
  /** The durable inode id at a path processes see. */
  inoAt: (path: string) => number;
  unsyncedAppends: Record<string, number>;
}

export function crashImage(shape: CrashShape, disk: DiskState): CrashImage {
  const report: CrashDiskReport = { mode: shape.mode, lostData: [], lostEntries: [], restoredEntries: [], torn: [], gaps: [], unsyncedAppends: disk.unsyncedAppends };
  const { volatileFiles } = disk;
  const image = new Map<string, Buffer>();
  const dirs: string[] = [];
  const meta = new Map<string, DurableMeta>();
  disk.durable.walk((path, ino, kind) => {
    if (kind === 'dir') {
      dirs.push(path);
      return;
    }
    const kept = disk.durable.meta.get(ino);
    if (kept !== undefined) meta.set(path, kept);
    const pending = disk.pending(ino);
    // A rewrite's or an overwrite's new bytes: the file's content now, when the same inode is still at that path.
    const rewritten = typeof pending === 'string' && volatileFiles.has(path) && disk.inoAt(path) === ino;
    const { bytes, torn } = crashBytes(shape, posix.relative(disk.dir, path), disk.durable.bytes(ino), pending, rewritten ? volatileFiles.get(path) : undefined);
    if (torn) report.torn.push({ path, ...torn });
    image.set(path, bytes);
  });
  for (const [path, bytes] of volatileFiles) {
    const after = image.get(path);
    if (after !== undefined && after.equals(bytes)) continue;
    if (after === undefined) report.lostEntries.push(path);
    else report.lostData.push({ path, bytes: bytesNotAsWritten(bytes, after) });
    report.gaps.push({ path, missing: missingStep(disk, path) });
  }
  for (const path of image.keys()) {
    if (volatileFiles.has(path)) continue;
    report.restoredEntries.push(path);
    report.gaps.push({ path, missing: 'folder-fsync' });
  }
  return { report, image, dirs, meta };
}

/**
 * Why a path processes see was not kept: its own writes pending (never fsynced, or dropped by a
 * failed fsync), or — its writes all durable — the folder entry naming it (a create, or a rename
 * onto it) never fsynced.
 */
function missingStep(disk: DiskState, path: string): DurabilityGap['missing'] {
  const ino = disk.inoAt(path);
  const pending = disk.pending(ino);
  if (pending === undefined) return disk.durable.lookup(path) === ino ? 'file-fsync' : 'folder-fsync';
  if (typeof pending !== 'string' && (pending.droppedBytes ?? 0) > 0) return 'failed-fsync';
  return 'file-fsync';
}
