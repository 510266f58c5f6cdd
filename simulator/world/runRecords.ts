/**
 * What a run leaves behind besides its trace: why it stopped, each crash (with what the disk kept
 * and lost, and the journal's records right after it), and how each incarnation exited.
 */
import type { DurabilityGap, Records } from '../../model/evidence.js';
import type { CrashFault } from '../scenario/scenario.js';
import type { CrashDiskReport } from '../disk/crashReport.js';

export type StopReason =
  | { kind: 'completed' }
  /** limit: the bound in force (scenario/scenarioBounds.ts). */
  | { kind: 'bounds-exceeded'; bound: 'steps' | 'incarnations' | 'virtual-time'; detail: string; limit?: number }
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
  /** What a machine crash lost, per path relative to the work folder, and the durability step that would have kept it. */
  gaps: DurabilityGap[];
  /** The journal's records on the durable image right after the crash. */
  records: Records;
  /** The records the next incarnation will read (for keep-all, the page cache survives). */
  visible: Records;
  /** The task's files on the durable image right after the crash (undefined: missing). */
  files: Record<string, string | undefined>;
  /** With SimulateOptions.crashDigests: a digest of the whole disk right after the crash (every path, its bytes, every folder): equal digests, equal crash states. */
  imageDigest?: string;
}

export interface ExitRecord {
  pid: number;
  incarnation: number;
  error?: string;
  /** The error's stack, as the journal's code threw it (its first frames; secrets masked). */
  stack?: string;
}
