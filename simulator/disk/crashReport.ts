/**
 * What a machine crash did to the disk, as the report and the judge read it: per path, the
 * unsynced data dropped, the entries that vanished or came back, the appends torn.
 */
import type { CrashMode } from '../scenario/scenario.js';

/** What a crash did to the disk: paths whose data or entries fell back to the durable image. */
export interface CrashDiskReport {
  mode: CrashMode;
  /** Unsynced data that was dropped, per path, in bytes (torn-tail: bytes dropped from the tail). */
  lostData: { path: string; bytes: number }[];
  /** Directory entries that were never made durable and vanished (created or renamed in). */
  lostEntries: string[];
  /** Entries that came back because their removal was never made durable (unlinked or renamed away). */
  restoredEntries: string[];
  /** Torn appends: the prefix that survived. */
  torn: { path: string; keptBytes: number; ofBytes: number }[];
  /** Before the crash: per path (relative), the unsynced appends (a rewrite counts 1) — what a per-file crash may keep a prefix of. */
  unsyncedAppends: Record<string, number>;
}

/** What a crash took, one line per path ("notes.md: 12 unsynced bytes lost"); `name` shortens paths. */
export function describeLoss(report: CrashDiskReport, name: (path: string) => string = (p) => p): string[] {
  return [
    ...report.lostData.map((d) => `${name(d.path)}: ${d.bytes} unsynced bytes lost`),
    ...report.lostEntries.map((p) => `${name(p)}: entry never fsynced, vanished`),
    ...report.restoredEntries.map((p) => `${name(p)}: removal never fsynced, came back`),
    ...report.torn.map((t) => `${name(t.path)}: torn, kept ${t.keptBytes} of ${t.ofBytes} bytes`),
  ];
}
