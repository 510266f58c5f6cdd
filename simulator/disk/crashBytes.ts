/**
 * What a machine crash leaves of one file that had unsynced changes (the disk's durability model;
 * see the top of disk.ts). A file's unsynced changes are a list of appends, or a rewrite in place
 * (opened with 'w'), or bytes overwritten in place (a write through a handle before its end). By crash mode:
 * - lose-unsynced: the durable bytes.
 * - per-file: each file keeps its own prefix of its unsynced appends (`keep[path]` whole appends,
 *   default none; a rewrite survives whole when keep ≥ 1), independently of every other file — as
 *   ALICE and CrashMonkey explore, since the page cache writes files back in any order.
 * - torn-tail: earlier unsynced appends survive, the last as a prefix of `tornKeepBytes` (default
 *   half, never all of it). As ALICE and LazyFS model a torn append.
 * - torn-write: as torn-tail for appends; a rewrite keeps only the new bytes' whole 4,096-byte
 *   blocks among the first `tornKeepBytes` (default none) — a small file is left empty. This is the
 *   zero-length file ext4 leaves after truncate-and-write with delayed allocation (the 2009
 *   "O_PONIES" reports). An overwrite in place keeps those first whole blocks new, the rest old.
 * - `tail` (torn-tail, torn-write): what fills the rest of a torn append, when the file's size
 *   reached the disk but its data did not: nothing (`cut`, the default), zero bytes (`zeros`: an
 *   allocated, unwritten extent) or `garbage` (stale block contents; here the byte 0xA5 repeated).
 *   LazyFS's torn-op and torn-seq faults leave these.
 * Writes dropped by a failed fsync (`droppedBytes`: Linux marks their pages clean, so they never
 * reach the disk) read as zeros when a later append extends the file past them.
 */
import type { CrashMode } from '../scenario/scenario.js';

const BLOCK_BYTES = 4096;
export const GARBAGE_BYTE = 0xa5;

export type CrashTail = 'cut' | 'zeros' | 'garbage';

/** A file's unsynced appends; `droppedBytes` precede them (a failed fsync's), on an empty base when `truncated`. */
export interface PendingAppends {
  appends: Buffer[];
  droppedBytes?: number;
  truncated?: boolean;
}

/** rewrite: truncated (opened with 'w'), then written; overwrite: bytes changed in place, no truncation. */
export type Pending = PendingAppends | 'rewrite' | 'overwrite';

/** The shape of a machine crash, as the scenario's crash fault gives it. */
export interface CrashShape {
  mode: CrashMode;
  tornKeepBytes?: number;
  tail?: CrashTail;
  /** per-file: whole unsynced appends kept, by path relative to the work dir. */
  keep?: Record<string, number>;
}

/** The bytes a file's durable content becomes when `appends` (after any dropped bytes) reach the disk. */
export function extended(durable: Buffer, pending: PendingAppends, appends: Buffer[]): Buffer {
  if (appends.length === 0) return durable;
  const base = pending.truncated ? Buffer.alloc(0) : durable;
  return Buffer.concat([base, Buffer.alloc(pending.droppedBytes ?? 0), ...appends]);
}

export function crashBytes(
  shape: CrashShape,
  path: string,
  durable: Buffer,
  pending: Pending | undefined,
  current: Buffer | undefined,
): { bytes: Buffer; torn?: { keptBytes: number; ofBytes: number } } {
  const { mode, tornKeepBytes } = shape;
  if (pending === undefined || mode === 'keep-all' || mode === 'lose-unsynced') return { bytes: durable };
  if (mode === 'per-file') {
    const keep = shape.keep?.[path] ?? 0;
    if (typeof pending === 'string') return { bytes: keep >= 1 && current !== undefined ? current : durable };
    return { bytes: extended(durable, pending, pending.appends.slice(0, keep)) };
  }
  if (pending === 'overwrite') {
    // Blocks reach the disk whole, in order: the first kept blocks are new, the rest old (torn-tail loses the overwrite).
    if (mode !== 'torn-write' || current === undefined) return { bytes: durable };
    const blocks = Math.floor(Math.min(tornKeepBytes ?? 0, current.length) / BLOCK_BYTES) * BLOCK_BYTES;
    const bytes = Buffer.alloc(Math.max(durable.length, blocks));
    durable.copy(bytes);
    current.copy(bytes, 0, 0, blocks);
    return { bytes, torn: { keptBytes: blocks, ofBytes: current.length } };
  }
  if (pending !== 'rewrite') {
    const last = pending.appends.at(-1);
    if (last === undefined) return { bytes: durable };
    const kept = Math.min(tornKeepBytes ?? Math.floor(last.length / 2), Math.max(0, last.length - 1));
    const tail = shape.tail ?? 'cut';
    const filler = tail === 'cut' ? Buffer.alloc(0) : Buffer.alloc(last.length - kept, tail === 'zeros' ? 0 : GARBAGE_BYTE);
    const survivors = [...pending.appends.slice(0, -1), last.subarray(0, kept), filler].filter((b) => b.length > 0);
    return { bytes: extended(durable, pending, survivors), torn: { keptBytes: kept, ofBytes: last.length } };
  }
  if (mode !== 'torn-write' || current === undefined) return { bytes: durable };
  const kept = Math.floor(Math.min(tornKeepBytes ?? 0, current.length) / BLOCK_BYTES) * BLOCK_BYTES;
  return { bytes: current.subarray(0, kept), torn: { keptBytes: kept, ofBytes: current.length } };
}

/** Bytes of `written` the crash did not keep as written: changed, or cut off. */
export function bytesNotAsWritten(written: Buffer, after: Buffer): number {
  let differ = Math.max(0, written.length - after.length);
  for (let i = 0; i < Math.min(written.length, after.length); i++) if (written[i] !== after[i]) differ++;
  return differ;
}
