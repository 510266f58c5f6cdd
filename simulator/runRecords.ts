/**
 * What a run leaves behind besides its trace: why it stopped, each crash (with what the disk kept
 * and lost, and the journal's records right after it), and how each incarnation exited.
 */
import type { Records } from '../model/evidence.js';
import type { CrashFault, CrashMode } from './scenario.js';

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

export type StopReason =
  | { kind: 'completed' }
  | { kind: 'bounds-exceeded'; bound: 'steps' | 'incarnations' | 'virtual-time'; detail: string }
  | { kind: 'deadlock'; detail: string }
  | { kind: 'stalled'; detail: string }
  /** Set by the worker pool's watchdog: the journal's code kept the thread for the hang timeout. */
  | { kind: 'journal-blocked'; detail: string }
  /** Set by the worker pool: the journal's memory passed the heap limit. */
  | { kind: 'journal-out-of-memory'; detail: string };

export interface CrashRecord {
  seq: number;
  timeMs: number;
  fault: CrashFault;
  /** Workers killed, as worker-<pid>#<incarnation>. */
  killed: string[];
  /** Workers still running after it (a process kill spares the others). */
  survivors: string[];
  disk: CrashDiskReport;
  /** The journal's records on the durable image right after the crash. */
  records: Records;
  /** The records the next incarnation will read (for keep-all, the page cache survives). */
  visible: Records;
  /** The task's files on the durable image right after the crash (undefined: missing). */
  files: Record<string, string | undefined>;
  /** A digest of the whole disk right after the crash (every path, its bytes, every folder): equal digests, equal crash states. */
  imageDigest: string;
}

export interface ExitRecord {
  pid: number;
  incarnation: number;
  error?: string;
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
