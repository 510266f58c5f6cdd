/**
 * What a machine crash leaves of one file that had unsynced changes, by crash mode (the disk's
 * durability model; see the top of disk.ts):
 * - lose-unsynced: the durable bytes.
 * - torn-tail: appends only — earlier unsynced appends survive, the last as a prefix of
 *   `tornKeepBytes` (default half, never all of it). As ALICE and LazyFS model a torn append.
 * - torn-write: as torn-tail for appends; a file rewritten in place (opened with 'w', or a
 *   FileHandle.writeFile that replaced it) keeps only the new bytes' whole 4,096-byte blocks among
 *   the first `tornKeepBytes` (default none) — a small file is left empty. This is the zero-length
 *   file ext4 leaves after truncate-and-write with delayed allocation (the 2009 "O_PONIES" reports).
 */
import type { CrashMode } from './scenario.js';

const BLOCK_BYTES = 4096;

export type Pending = { appends: Buffer[] } | 'rewrite';

export function tornBytes(
  mode: CrashMode,
  durable: Buffer,
  pending: Pending | undefined,
  current: Buffer | undefined,
  tornKeepBytes: number | undefined,
): { bytes: Buffer; torn?: { keptBytes: number; ofBytes: number } } {
  if ((mode !== 'torn-tail' && mode !== 'torn-write') || pending === undefined) return { bytes: durable };
  if (pending !== 'rewrite') {
    const last = pending.appends.at(-1);
    if (last === undefined) return { bytes: durable };
    const kept = Math.min(tornKeepBytes ?? Math.floor(last.length / 2), Math.max(0, last.length - 1));
    return { bytes: Buffer.concat([durable, ...pending.appends.slice(0, -1), last.subarray(0, kept)]), torn: { keptBytes: kept, ofBytes: last.length } };
  }
  if (mode !== 'torn-write' || current === undefined) return { bytes: durable };
  const kept = Math.floor(Math.min(tornKeepBytes ?? 0, current.length) / BLOCK_BYTES) * BLOCK_BYTES;
  return { bytes: current.subarray(0, kept), torn: { keptBytes: kept, ofBytes: current.length } };
}
