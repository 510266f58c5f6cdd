/**
 * Building blocks of the bundled journals: an append-only JSONL log made durable record by record,
 * a task lease, and the reader that turns the log into the model's vocabulary.
 *
 * Everything goes through `env`; nothing here touches the real world directly.
 */
import type { DiskView, Env, FileHandle, FileRecord, FileState, JournalRecords, OperationRecord, OperationState } from '../../model/contract/contract.js';

export const LOG_FILE = 'journal.jsonl';
export const LEASE_FILE = 'journal.lock';

/** One line of the log. `state` is in the model's vocabulary; the rest is evidence. File records carry `path`. */
export interface LogRecord {
  key: string;
  state: OperationState | FileState;
  digest?: string;
  body?: string;
  /** authorized: the input the intent was planned from. The recorded intent wins, and its provenance with it. */
  input?: { resource: string; version: string };
  receipt?: string;
  path?: string;
  candidateDigest?: string;
  preserved?: string;
  reason?: string;
  pid?: number;
  incarnation?: number;
  /** The stable class of a failure the service answered: what the next incarnation does about it. */
  errorClass?: 'invalid-argument' | 'permission-revoked' | 'unavailable';
  /** unavailable: not before this time (the clock's, ms) is the operation sent again. */
  nextAttemptAtMs?: number;
  /** A spent retry budget or a paused task: what a human needs to take over. */
  handoff?: { completed: string[]; inDoubt: string[]; receipts: Record<string, string>; check: string };
}

export function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** A line of a JSONL log: keyed, with a state. */
export interface KeyedLine {
  key: string;
  state: string;
}

/** Parses log text. A torn or garbled line (a crash mid-append) is skipped, never fatal. */
export function parseLog<R extends KeyedLine = LogRecord>(text: string): R[] {
  const records: R[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as R;
      if (value && typeof value === 'object' && typeof value.key === 'string' && typeof value.state === 'string') records.push(value);
    } catch {
      // A partial line left by a crash: the record never became durable as a whole.
    }
  }
  return records;
}

/** Makes a directory's entries durable (fsync of the directory). */
export async function syncDir(env: Env, dir = env.dir): Promise<void> {
  const handle = await env.fs.open(dir, 'r');
  await handle.sync();
  await handle.close();
}

/** The append-only log: every append is fsynced before it returns. One handle per incarnation. */
export class JsonlLog<R extends KeyedLine = LogRecord> {
  private handle: FileHandle | undefined;

  constructor(
    private readonly env: Env,
    private readonly file = LOG_FILE,
  ) {}

  /**
   * Reads every intact record and creates the log if missing. Then makes what it read durable: a
   * previous incarnation may have died with records only in the page cache (killed between an
   * append and its fsync), or after an fsync that failed — and on Linux a failed fsync drops the
   * writes from writeback while they stay readable, so a later fsync of the same file succeeds
   * without writing them. A log that holds anything is therefore written afresh (temp file, fsync,
   * rename, directory fsync), never trusted to a second fsync; the rewrite also drops a torn line.
   */
  async open(): Promise<R[]> {
    let text = '';
    try {
      text = await this.env.fs.readFile(this.file, 'utf8');
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
    }
    const records = parseLog<R>(text);
    if (text.length > 0) await this.rewrite(records);
    this.handle = await this.env.fs.open(this.file, 'a');
    if (text.length === 0) {
      await this.handle.sync();
      await syncDir(this.env);
    }
    return records;
  }

  /** Replaces the log with `records`, atomically and durably. */
  private async rewrite(records: R[]): Promise<void> {
    const temp = `${this.file}.rewrite`;
    const handle = await this.env.fs.open(temp, 'w');
    await handle.writeFile(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    await handle.sync();
    await handle.close();
    await this.env.fs.rename(temp, this.file);
    await syncDir(this.env);
  }

  async append(record: R): Promise<void> {
    await this.appendRaw(`${JSON.stringify({ ...record, pid: this.env.pid, incarnation: this.env.incarnation })}\n`);
  }

  /** Appends without an fsync: for callers that choose their own durability. */
  async appendUnsynced(record: R): Promise<void> {
    await this.env.fs.appendFile(this.file, `${JSON.stringify({ ...record, pid: this.env.pid, incarnation: this.env.incarnation })}\n`);
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }

  private async appendRaw(text: string): Promise<void> {
    this.handle ??= await this.env.fs.open(this.file, 'a');
    await this.handle.appendFile(text);
    await this.handle.sync();
  }
}

/** Polls back off, doubling from pollMs up to 16 times it: a long wait costs a few steps, not thousands. */
export function pollDelayMs(pollMs: number, attempt: number): number {
  return pollMs * 2 ** Math.min(attempt, 4);
}

export interface LeaseOptions {
  pollMs: number;
  attempts: number;
}

/**
 * Takes the task's lease: a lock file naming the owning worker slot, published atomically (written
 * and fsynced under a per-worker name, then hard-linked into place, which fails if it exists), so
 * it is never seen half-written. A new incarnation of the owner adopts its own lease (the
 * supervisor restarts a slot only after it died); another worker waits, and gives up after
 * `attempts` polls, leaving the task to the owner.
 */
export async function acquireLease(env: Env, options: LeaseOptions): Promise<boolean> {
  const mine = `${LEASE_FILE}.${env.pid}`;
  for (let attempt = 0; attempt < options.attempts; attempt++) {
    const handle = await env.fs.open(mine, 'w');
    await handle.writeFile(JSON.stringify({ pid: env.pid }));
    await handle.sync();
    await handle.close();
    let taken = false;
    try {
      await env.fs.link(mine, LEASE_FILE);
      taken = true;
    } catch (error) {
      if (!hasCode(error, 'EEXIST')) throw error;
    }
    await env.fs.unlink(mine);
    if (taken) {
      await syncDir(env);
      return true;
    }
    let owner: number | undefined;
    try {
      owner = (JSON.parse(await env.fs.readFile(LEASE_FILE, 'utf8')) as { pid?: number }).pid;
    } catch (error) {
      if (hasCode(error, 'ENOENT')) continue; // released meanwhile: try again at once
      throw error;
    }
    if (owner === env.pid) return true;
    await env.clock.sleep(pollDelayMs(options.pollMs, attempt));
  }
  return false;
}

export async function releaseLease(env: Env): Promise<void> {
  await env.fs.unlink(LEASE_FILE);
  await syncDir(env);
}

/** Reads a log off a disk image into the model's vocabulary (the `inspect` of the bundled journals). */
export function recordsFromLog(disk: DiskView, file = LOG_FILE): JournalRecords {
  return recordsFromLines(parseLog(disk.readFile(file) ?? ''));
}

/** Log records, in order, in the model's vocabulary. */
export function recordsFromLines(lines: readonly LogRecord[]): JournalRecords {
  const records: JournalRecords = {};
  for (const line of lines) {
    if (line.path !== undefined) {
      const entry = (records[line.key] ??= { kind: 'file', path: line.path ?? '', history: [], preserved: [] }) as FileRecord & { history: FileState[] };
      entry.history.push(line.state as FileState);
      if (line.path !== undefined) entry.path = line.path;
      if (line.preserved !== undefined) entry.preserved.push(line.preserved);
      continue;
    }
    const entry = (records[line.key] ??= { kind: 'operation', history: [] }) as OperationRecord & { history: OperationState[] };
    entry.history.push(line.state as OperationState);
    if (line.state === 'authorized' && line.digest !== undefined) entry.digest = line.digest;
    if (line.state === 'succeeded' && line.receipt !== undefined) entry.receipt = line.receipt;
  }
  return records;
}
