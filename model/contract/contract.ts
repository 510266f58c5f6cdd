/**
 * The contract between durasim and a journal under test.
 *
 * A journal is a `JournalAdapter`: `run(env, task)` executes (or resumes) the task in one
 * incarnation of a worker process, touching the world only through `env`; `inspect(disk)` reads
 * the journal's durable records back in the model's vocabulary. The same adapter runs in
 * production against `realEnv()` and under simulation against the simulated world.
 */

/** The vocabulary is the model's own (model/lifecycle.ts); the contract re-exports it. */
export { OPERATION_STATES, FILE_STATES, FINISHED_STATES, type OperationState, type FileState } from '../lifecycle.js';
import type { FileState, OperationState } from '../lifecycle.js';
/** A journal's own state names, mapped to the model's (JournalAdapter.states; model/stateNames.ts has the rules). */
export type { StateNames } from '../stateNames.js';
import type { StateNames } from '../stateNames.js';
/** One of the journal's own state names, declared in JournalAdapter.states (any string, to the type checker). */
export type OwnStateName = string & Record<never, never>;

/** A non-retry-safe external write: POST /operations/:key with an idempotency key and a body. */
export interface PublishOperation {
  kind: 'publish';
  key: string;
  body: string;
  /** True only when re-sending is harmless (the endpoint is naturally idempotent). Default false. */
  retrySafe?: boolean;
  /**
   * The input this node's plan was made from: a resource at the service (GET /resources/:resource)
   * at that version (its value then). Read it again right before every send: if it changed, the
   * plan is stale — do not send; pause for replanning (blocked). version-change-pauses judges it.
   */
  input?: { resource: string; version: string } | undefined;
}

/** A retry-safe read: GET /resources/:resource. */
export interface LookupOperation {
  kind: 'lookup';
  key: string;
  resource: string;
}

/**
 * A guarded file delivery: read `path`, build the candidate `content + append`, and replace the
 * file only if it still holds the content the candidate was built from.
 */
export interface EditOperation {
  kind: 'edit';
  key: string;
  path: string;
  append: string;
}

export type Operation = PublishOperation | LookupOperation | EditOperation;

/** What the external service promises; a journal may rely on exactly this and nothing more. */
export interface ServicePromises {
  /** Base URL of the service, e.g. `http://service.durasim`. */
  url: string;
  /** `GET /operations/:key` answers with the stored receipt (200) or 404. */
  query: boolean;
  /** Re-sending the same key with the same body replays the stored receipt with no new effect. */
  idempotentReplay: boolean;
}

export interface Task {
  id: string;
  operations: Operation[];
  service: ServicePromises;
  /**
   * The credential the service wants on every request, when the task carries one: send it as
   * `authorization: Bearer <accessToken>`. Keep it in memory only: never in a checkpoint, a log, a
   * file or the store (no-secret-persisted); a restarted incarnation is handed it again.
   */
  accessToken?: string;
  /**
   * How many POSTs may reach the service, across every restart and every worker: per operation,
   * and for the whole task. Keep the count where a restart finds it (retry-budget); when it is
   * spent, end the operation blocked and leave a handoff (what is done, what is in doubt).
   */
  retryBudget?: RetryBudget;
  /**
   * Set when the task can be cancelled: where a cancel appears, a file (relative to the work
   * folder) that the user writes when they cancel. Check it when claiming a node, before every
   * send and every retry: once it is there, start no new side effect; record what already happened
   * as happened (no-effect-after-cancel, cancel-truth). Under simulation it is `<task id>.cancel`,
   * set when the scenario holds a cancel (its time is still unknown to the journal).
   */
  cancelFile?: string;
  /**
   * Set when the task keeps temporary files (staged uploads, chunks, intermediate indexes): where
   * they go. The folder is shared with other tasks: the files in it before the run are theirs.
   * Register each temp file (owner task, node, retention) durably before creating it. Once the
   * task is finished (every operation ended and none blocked), or cancelled, delete the files this
   * task registered — never by a name pattern, never another task's (cleanup-owned-only) — once
   * their retention has passed, and record a cleanup receipt for each; keep the journal's records
   * (evidence-retained). A crash may stop the cleanup half-way and a duplicate delivery may repeat
   * it: the next run finishes it. A finished task's temp files still there at the end are
   * reported (convergence).
   */
  temp?: TempFolder;
}

export interface TempFolder {
  /** Relative to the work folder. */
  dir: string;
  /** How long a temp file is kept after it was created, at least. */
  retentionMs: number;
}

export interface RetryBudget {
  perOperation: number;
  perTask: number;
}

/**
 * Subset of `node:fs` `FileHandle`, with its semantics: `writeFile` and `appendFile` write at the
 * handle's position (at the end on a handle opened with 'a'), never truncating; `readFile` reads
 * from the position to the end. Every call is one simulated step.
 */
export interface FileHandle {
  appendFile(data: string | Uint8Array): Promise<void>;
  writeFile(data: string | Uint8Array): Promise<void>;
  readFile(options?: { encoding?: null }): Promise<Uint8Array>;
  readFile(options: { encoding: 'utf8' } | 'utf8'): Promise<string>;
  /** fsync. On a handle opened on a directory, makes that directory's entries durable. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface Stats {
  size: number;
  isFile(): boolean;
  isDirectory(): boolean;
}

/** Subset of `node:fs/promises`. Paths are absolute or relative to `env.dir`. */
export interface EnvFs {
  open(path: string, flags?: 'r' | 'r+' | 'w' | 'wx' | 'a' | 'ax'): Promise<FileHandle>;
  appendFile(path: string, data: string | Uint8Array): Promise<void>;
  /**
   * From scenario format 2 on, three steps as Node makes them — open (truncating under 'w'), write,
   * close — so a kill between them leaves an empty file, as in production. `appendFile` is one.
   */
  writeFile(path: string, data: string | Uint8Array, options?: { flag?: 'w' | 'wx' }): Promise<void>;
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  rename(from: string, to: string): Promise<void>;
  /** A hard link: fails with EEXIST when `to` exists (the atomic no-clobber way to publish a file). */
  link(existing: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<Stats>;
}

export interface Clock {
  /** Milliseconds since the epoch (virtual under simulation). */
  now(): Promise<number>;
  sleep(ms: number): Promise<void>;
  /** An AbortSignal that aborts with a `TimeoutError` after `ms` (virtual under simulation). */
  timeout(ms: number): Promise<AbortSignal>;
}

/** A key's value and its version in the shared store. */
export interface StoreEntry {
  key: string;
  value: string;
  version: number;
}

/** The answer to a write: the new version, or why nothing changed. */
export type StoreWriteResult = { ok: true; version: number } | { ok: false; reason: 'conflict' | 'lease'; version?: number };

/** A write made under a lease: applied only while that lease is held with that token (the store's fencing). */
export interface UnderLease {
  lease?: { name: string; token: number } | undefined;
}

/** A lease as the store keeps it: who holds it, the fencing token granted with it, and until when (store's clock). */
export interface Lease {
  name: string;
  holder: string;
  token: number;
  expiresAtMs: number;
  renewals: number;
}

export type LeaseResult = { ok: true; lease: Lease } | { ok: false; reason: 'held' | 'not-holder' | 'expired'; lease?: Lease };

/**
 * The shared store (a database, Redis, DynamoDB): compare-and-set on versioned keys, keys that
 * expire, and leases with fencing tokens, on the store's own clock. A call that gets no answer
 * rejects with an error named "StoreTimeoutError" after the store's timeout: it may or may not
 * have been applied. docs/store.md has the model.
 */
export interface Store {
  get(key: string): Promise<StoreEntry | undefined>;
  /** ifVersion: only if the key holds that version; ifAbsent: only if it holds none; lease: only while that lease holds that token. ttlMs: it expires then. */
  put(key: string, value: string, options?: { ifVersion?: number | undefined; ifAbsent?: boolean | undefined; ttlMs?: number | undefined } & UnderLease): Promise<StoreWriteResult>;
  delete(key: string, options?: { ifVersion?: number | undefined } & UnderLease): Promise<StoreWriteResult>;
  /** Every key that starts with the prefix, sorted. */
  list(prefix: string): Promise<StoreEntry[]>;
  /** The store's clock (server time), in milliseconds since the epoch. */
  now(): Promise<number>;
  lease: {
    /** Granted when the lease is free or expired, with a fencing token larger than any granted before. */
    acquire(name: string, options: { holder: string; ttlMs: number }): Promise<LeaseResult>;
    /** Only with the current token, before expiry. */
    renew(name: string, options: { token: number; ttlMs: number }): Promise<LeaseResult>;
    /** With the current token; or forced (an operator), which needs a reason and is audited. */
    release(name: string, options: { token: number } | { force: true; reason: string }): Promise<LeaseResult>;
  };
}

/** A read-only view of the shared store, as inspect() receives it. */
export interface StoreView {
  get(key: string): StoreEntry | undefined;
  list(prefix: string): StoreEntry[];
}

export interface Env {
  /** The worker's working directory; the task's files live here. */
  dir: string;
  fs: EnvFs;
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  clock: Clock;
  /** The shared store. Under simulation, the world's (scenario.store); in production, the one given to realEnv. */
  store: Store;
  /** A number in [0, 1): drawn from the scenario under simulation. */
  random(): Promise<number>;
  /** The worker slot; stable across incarnations (a supervisor restarts the same slot). */
  pid: number;
  /** 0 for the first run of this worker slot, +1 after every crash. */
  incarnation: number;
}

/** Read-only synchronous view of a disk image (the durable image after a crash, or the live one). */
export interface DiskView {
  dir: string;
  readFile(path: string): string | undefined;
  readdir(path: string): string[];
}

/**
 * A key's record. Report `state` (the current state) or `history` (every state recorded, in
 * order), or both: durasim reads the durable image after every change and observes the sequence
 * of states itself, so a journal that keeps only the current state is judged fairly.
 */
export interface OperationRecord {
  kind: 'operation';
  /** The state the record holds now: the model's name, or one of the journal's own (JournalAdapter.states). */
  state?: OperationState | OwnStateName | undefined;
  /** Every state the journal recorded for this key, in order. */
  history?: (OperationState | OwnStateName)[] | undefined;
  /** The argument digest recorded with the intent (authorized). */
  digest?: string | undefined;
  /** The receipt recorded with succeeded. */
  receipt?: string | undefined;
}

export interface FileRecord {
  kind: 'file';
  path: string;
  state?: FileState | OwnStateName | undefined;
  history?: (FileState | OwnStateName)[] | undefined;
  /** Texts the journal preserved when it recorded a conflict (the user's version). */
  preserved: string[];
}

/** What a journal's durable records say, keyed by operation key. */
export interface JournalRecords {
  [key: string]: OperationRecord | FileRecord;
}

export interface JournalAdapter {
  name: string;
  /** One incarnation of a worker executing or resuming the task. Called afresh after every crash. */
  run(env: Env, task: Task): Promise<void>;
  /**
   * Reads the journal's records from a disk image (and, for a journal that keeps them there, the
   * shared store: durasim always passes it) in the model's vocabulary, or in the journal's own
   * state names when `states` maps them.
   */
  inspect(disk: DiskView, store?: StoreView): JournalRecords;
  /**
   * The journal's own state names, each mapped to the model's state it means, or declared a
   * sub-state of the one it refines: `{ queued: 'authorized', sending: 'dispatched', retry_wait:
   * { refines: 'outcome_unknown' }, paid: 'succeeded' }`. inspect() may then return these words;
   * the judge judges the model's states, and every message names the journal's word with the
   * model's in brackets once (`sending [dispatched]`). Checked when the journal loads: a target that
   * is not a state of the model is refused.
   */
  states?: StateNames;
}
