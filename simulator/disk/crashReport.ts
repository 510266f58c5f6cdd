/**
 * What a machine crash did to the disk, as the report and the judge read it: per path, the
 * unsynced data dropped, the entries that vanished or came back, the appends torn.
 */
import type { DurabilityGap } from '../../model/evidence.js';
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
  /** Per path (absolute) lost, torn or come back: the durability step that would have kept it (see DurabilityGap). */
  gaps: DurabilityGap[];
  /** Before the crash: per path (relative), the unsynced appends (a rewrite counts 1) — what a per-file crash may keep a prefix of. */
  unsyncedAppends: Record<string, number>;
}

/** The gaps with paths as `name` shows them (relative to the work folder, for evidence). */
export function gapsOf(report: CrashDiskReport, name: (path: string) => string): DurabilityGap[] {
  return report.gaps.map((g) => ({ path: name(g.path), missing: g.missing }));
}

/** A report of a crash that lost nothing. */
export function emptyLoss(mode: CrashMode, unsyncedAppends: Record<string, number>): CrashDiskReport {
  return { mode, lostData: [], lostEntries: [], restoredEntries: [], torn: [], gaps: [], unsyncedAppends };
}

/**
 * What a crash took, one line per path ("notes.md: 12 unsynced bytes lost"), as the trace has always
 * worded it (the trace is a fingerprint: its wording stays); `name` shortens paths.
 */
export function describeLoss(report: CrashDiskReport, name: (path: string) => string = (p) => p): string[] {
  return [
    ...report.lostData.map((d) => `${name(d.path)}: ${d.bytes} unsynced bytes lost`),
    ...report.lostEntries.map((p) => `${name(p)}: entry never fsynced, vanished`),
    ...report.restoredEntries.map((p) => `${name(p)}: removal never fsynced, came back`),
    ...report.torn.map((t) => `${name(t.path)}: torn, kept ${t.keptBytes} of ${t.ofBytes} bytes`),
  ];
}

/**
 * What a crash took and which durability step would have kept it, one line per path: a file never
 * fsynced, a file fsynced whose folder was not, a failed fsync trusted. For reports and evidence.
 */
export function explainLoss(report: CrashDiskReport, name: (path: string) => string = (p) => p): string[] {
  const missing = new Map(report.gaps.map((g) => [g.path, g.missing]));
  const data = (path: string, bytes: number): string => {
    const why = missing.get(path);
    if (why === 'folder-fsync') return `${name(path)}: fsynced and renamed into place, but the rename was lost (${bytes} bytes not as written) — fsync the folder after the rename`;
    if (why === 'failed-fsync') return `${name(path)}: ${bytes} bytes lost that a failed fsync had dropped — a retried fsync succeeds without them: rewrite the file`;
    return `${name(path)}: ${bytes} unsynced bytes lost — fsync the file`;
  };
  return [
    ...report.lostData.map((d) => data(d.path, d.bytes)),
    ...report.lostEntries.map((p) => (missing.get(p) === 'folder-fsync' ? `${name(p)}: fsynced, but its entry vanished — fsync the folder after creating or renaming into it` : `${name(p)}: never fsynced, its entry vanished — fsync the file, then its folder`)),
    ...report.restoredEntries.map((p) => `${name(p)}: removed, but it came back — fsync the folder after the removal`),
    ...report.torn.map((t) => `${name(t.path)}: torn, kept ${t.keptBytes} of ${t.ofBytes} bytes — fsync the file`),
  ];
}
