/**
 * Trace: the record of a simulation, one entry per step and per event (crash, fault, commit,
 * restart, user edit). Two runs of the same scenario must give the same trace, byte for byte;
 * `traceHash` is the fingerprint that checks it.
 */
import { createHash } from 'node:crypto';
import { WORK_DIR } from '../scenario/scenario.js';

export interface TraceEntry {
  /** Position in the trace. */
  seq: number;
  /** Virtual milliseconds since the start of the run. */
  timeMs: number;
  /** worker-<pid>, user, service, supervisor. */
  actor: string;
  incarnation?: number;
  /** For worker steps: the step's index within its incarnation (what crash faults name). */
  step?: number;
  /** For worker steps: the global step number (what atStep faults name). */
  globalStep?: number;
  op: string;
  detail: string;
}

/**
 * The fingerprint of a run: every trace entry, and the digest of every byte the journal wrote or
 * sent (the trace itself shows previews of data, cut at 120 characters).
 */
/** SHA-256 of what the journal wrote and sent, in order (see World.notePayload). */
export function payloadDigest(payload: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const chunk of payload) hash.update(chunk);
  return hash.digest('hex');
}

export function traceHash(trace: readonly TraceEntry[], payloadDigest = ''): string {
  const hash = createHash('sha256');
  for (const entry of trace) hash.update(`${JSON.stringify(entry)}\n`);
  hash.update(`payload ${payloadDigest}\n`);
  return hash.digest('hex');
}

/** One line per entry, for terminals and reports. */
export function formatTraceEntry(entry: TraceEntry): string {
  const who = entry.incarnation === undefined ? entry.actor : `${entry.actor}#${entry.incarnation}`;
  const step = entry.step === undefined ? '' : ` step ${entry.step}`;
  const head = `${String(entry.seq).padStart(4)} ${String(entry.timeMs).padStart(7)}ms ${who}${step} ${entry.op}`;
  if (!entry.detail) return head;
  // A detail of several lines (console output) goes on under itself.
  return `${head} ${entry.detail.includes('\n') ? entry.detail.replaceAll('\n', `\n${' '.repeat(head.length + 1)}`) : entry.detail}`;
}

/** The error code a failed step reports in the trace (ENOENT, EEXIST, TimeoutError…). */
export function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'string') return (error as { code: string }).code;
  return error instanceof Error ? error.name : 'error';
}

/** A path as the trace shows it: relative to the work dir. */
export function rel(path: string): string {
  return path.startsWith(`${WORK_DIR}/`) ? path.slice(WORK_DIR.length + 1) : path;
}

/** Data as the trace shows it: quoted, cut at `max` characters. */
export function preview(text: string, max = 120): string {
  // Only the first `max` characters can show (escaping never shortens them): the rest is never stringified.
  const flat = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…"` : flat;
}

/**
 * preview() of data written or sent, bytes read as UTF-8. Only a prefix is decoded: a UTF-16 code
 * unit takes at most 3 bytes, so 3 × (max + 2) bytes give more than max + 1 code units, and only
 * the last (a sequence cut at the end) can differ from decoding the whole.
 */
export function previewData(data: string | ArrayBufferView, max = 120): string {
  if (typeof data === 'string') return preview(data, max);
  return preview(Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 3 * (max + 2))).toString('utf8'), max);
}
