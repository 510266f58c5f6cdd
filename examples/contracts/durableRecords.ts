/**
 * What the example workers of examples/contracts/ keep on disk, written the way a Node service
 * writes it (node:fs/promises; no durasim API):
 *
 * - Records: one JSONL file, every record appended and fsynced before the step it announces. At
 *   start it is read (a torn last line skipped) and written afresh durably (temp file, fsync,
 *   rename, folder fsync): after a failed fsync, Linux keeps unsynced bytes readable but never
 *   writes them, so what the worker goes on from must be what the disk holds.
 * - A lease: a lock file hard-linked into place (never half-written) makes one worker the writer; a
 *   second delivery of the task waits for it. `worker` is the worker's slot (env.pid under durasim,
 *   what a supervisor passes in production).
 * - inspect(): the records as durasim's model reads them (`kind: 'operation'`, the states in order,
 *   the receipt of a `succeeded`). They keep no digest: durasim judges them on what the worker sent.
 */
import { link, open, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { JournalRecords, OperationState } from 'durasim';

export interface Entry {
  key: string;
  state: string;
  /** authorized: the request body, exactly as it is sent (every send sends this one). */
  body?: string | undefined;
  /** succeeded: the service's id for the effect; outcome_unknown: one it named while it was still pending. */
  receipt?: string | undefined;
  /** dispatched: when the worker was about to send it (Date.now()). */
  at?: number | undefined;
  reason?: string | undefined;
  /** outcome_unknown after a 503: not before this time (Date.now()), across restarts. */
  nextAttemptAtMs?: number | undefined;
  /** blocked by a 403: the task pauses until a human resumes it. */
  paused?: boolean | undefined;
}

/** The states after which an operation is done with (a human may take it from there). */
export const FINAL = new Set(['succeeded', 'conflict', 'failed', 'blocked']);

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
}

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function parseRecords(text: string): Entry[] {
  return text.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Entry;
      return typeof entry?.key === 'string' && typeof entry.state === 'string' ? [entry] : [];
    } catch {
      return []; // empty, or torn by a crash mid-append
    }
  });
}

export class Records {
  private handle: FileHandle | undefined;
  private readonly byKey = new Map<string, Entry[]>();
  constructor(private readonly file: string) {}

  async open(): Promise<void> {
    const text = (await readText(this.file)) ?? '';
    const entries = parseRecords(text);
    if (text !== '') {
      await writeDurably(`${this.file}.rewrite`, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
      await rename(`${this.file}.rewrite`, this.file);
      await fsyncPath('.');
    }
    this.handle = await open(this.file, 'a');
    if (text === '') {
      await this.handle.sync();
      await fsyncPath('.');
    }
    for (const entry of entries) this.remember(entry);
  }

  history(key: string): Entry[] {
    return this.byKey.get(key) ?? [];
  }

  last(key: string): Entry | undefined {
    return this.history(key).at(-1);
  }

  /** Whether a 403 paused the task (it stays paused until a human resumes it). */
  paused(): boolean {
    return [...this.byKey.values()].some((entries) => entries.some((e) => e.paused));
  }

  async add(entry: Entry): Promise<void> {
    await this.handle?.appendFile(`${JSON.stringify(entry)}\n`);
    await this.handle?.sync();
    this.remember(entry);
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }

  private remember(entry: Entry): void {
    this.byKey.set(entry.key, [...this.history(entry.key), entry]);
  }
}

/** Takes the task's lease (waiting for another worker's); false when it never came free. */
export async function takeLease(lock: string, worker: number): Promise<boolean> {
  const mine = `${lock}.${worker}`;
  for (let attempt = 0; attempt < 600; attempt++) {
    await writeDurably(mine, JSON.stringify({ worker }));
    const taken = await link(mine, lock).then(() => true, (error: unknown) => {
      if (codeOf(error) !== 'EEXIST') throw error;
      return false;
    });
    await unlink(mine);
    if (taken) {
      await fsyncPath('.');
      return true;
    }
    const owner = await readText(lock);
    if (owner !== undefined && (JSON.parse(owner) as { worker: number }).worker === worker) return true; // mine, from before a crash
    await sleep(100);
  }
  return false;
}

export async function releaseLease(lock: string): Promise<void> {
  await unlink(lock);
  await fsyncPath('.');
}

/** The records as durasim's model reads them. */
export function inspectRecords(text: string | undefined): JournalRecords {
  const records: JournalRecords = {};
  for (const e of parseRecords(text ?? '')) {
    const record = (records[e.key] ??= { kind: 'operation', history: [] });
    if (record.kind !== 'operation') continue;
    (record.history ??= []).push(e.state as OperationState);
    if (e.state === 'succeeded') record.receipt = e.receipt;
  }
  return records;
}

/** JSON with object keys sorted (how two bodies are compared as one intent). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
