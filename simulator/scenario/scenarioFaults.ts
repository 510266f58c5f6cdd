/**
 * A scenario's faults: their types, and the validation of untrusted fault JSON (scenario.ts
 * validates the rest). Every fault is plain data; a missing optional field is the gentlest choice.
 */
import { STORE_CALL_FAULTS, type StoreCallFaultKind } from '../store/store.js';
import { describe, fail, int, isRecord, mapEntries, misnamedKind, nonEmptyStr, oneOf, optional, relativePath, shown, str, strict, type Json } from './scenarioValidators.js';

/** The errors an io-error fault may fail a disk call with (the disk raises them as node:fs does: disk/ioError.ts). */
export const IO_ERROR_CODES = ['EIO', 'ENOSPC'] as const;
export type IoErrorCode = (typeof IO_ERROR_CODES)[number];

export const CRASH_MODES = ['keep-all', 'lose-unsynced', 'per-file', 'torn-tail', 'torn-write'] as const;
export const CRASH_TAILS = ['cut', 'zeros', 'garbage'] as const;
export type CrashMode = (typeof CRASH_MODES)[number];

/**
 * Kills one incarnation of a worker at one of its env calls: its `step`-th (0-based, counted per
 * incarnation), or — anchored to the journal's own work, so it stays in its window when other
 * operations come and go — its `at.occurrence`-th call whose trace line mentions `at.mentions`
 * (an operation's key, or a file's path: the POST of post-b, the append recording it, the rename
 * of notes.md). Exactly one of `step` and `at`.
 */
export type CrashFault = CrashFaultBase & ({ step: number; at?: never } | { at: FaultAnchor; step?: never });

/** An anchor: the `occurrence`-th (0-based) step, or request, that names `mentions` (a key, a path, a resource). */
export interface FaultAnchor {
  mentions: string;
  occurrence: number;
}

/**
 * Where a fault that is no worker's own step lands (a cancel, an input change, a duplicate
 * delivery, a concurrent call, a restart, a store edit, a takeover): just before global step
 * `atStep`, or — anchored to the journal's own work, so it stays in its window when other
 * operations come and go — just `before` (the default) or just `after` the `occurrence`-th
 * (0-based) worker step, of any worker, whose trace line names `mentions` as a whole word (a key, a
 * path, a resource, a store key, or a step's kind: `POST`, `fh.sync`, `store.renew`). Anchors on
 * these faults are format 3's.
 */
export interface EventAnchor extends FaultAnchor {
  when?: 'before' | 'after';
}

/** Exactly one of `atStep` and `at`. */
export type EventPlacement = { atStep: number; at?: never } | { at: EventAnchor; atStep?: never };

/** The version from which anchors are taken on every fault kind (and `at.when` on a pause). */
export const EVENT_ANCHOR_VERSION = 3;

interface CrashFaultBase {
  kind: 'crash';
  process: number;
  incarnation: number;
  /** before: the call never happens. after: it happened (the response arrived) but the process dies. */
  when: 'before' | 'after';
  /**
   * keep-all: a process kill; the page cache survives, only this worker dies.
   * lose-unsynced / per-file / torn-tail / torn-write: a machine crash; every worker dies and the
   * disk falls back to its durable image (per-file: each file keeps `keep[path]` of its unsynced
   * appends; torn-tail: the last unsynced append of each file survives as a prefix; torn-write:
   * that, and a file rewritten in place keeps only whole 4,096-byte blocks of its new bytes, so a
   * small one is left empty). See simulator/disk/crashBytes.ts.
   */
  mode: CrashMode;
  /** torn-tail and torn-write: bytes of the last unsynced append that survive (clamped below its length); of a rewrite, whole blocks within it. */
  tornKeepBytes?: number;
  /** torn-tail and torn-write: what fills the rest of the torn append (default cut: nothing; zeros; garbage). */
  tail?: (typeof CRASH_TAILS)[number];
  /** per-file: per path (relative), how many of its unsynced appends survive whole (default 0; a rewrite survives at 1). */
  keep?: Record<string, number>;
}

/**
 * An I/O error on one worker step (by number or anchored, as a crash): the step's disk call fails
 * with `error`. A write first stores `writtenBytes` of its data (a short write; default 0); a
 * failed fsync drops the file's unsynced writes from writeback, as Linux does (simulator/disk/disk.ts).
 * On a step that makes no disk call it does nothing (the trace says so).
 */
export type IoErrorFault = IoErrorFaultBase & ({ step: number; at?: never } | { at: FaultAnchor; step?: never });

interface IoErrorFaultBase {
  kind: 'io-error';
  process: number;
  incarnation: number;
  error: IoErrorCode;
  writtenBytes?: number;
}

export const RESPONSE_FAULTS = [
  'drop-after-commit',
  '500-before-commit',
  '500-after-commit',
  'accept-later',
  'malformed-body',
  'null-body',
  'wrong-key',
  'wrong-digest',
  'empty-receipt',
  'pending-state',
  'cut-body',
  'delay',
] as const;
/**
 * Failure classes (seed 002), each needing its own answer from the journal: invalid-argument (400,
 * and every later POST of that key and body: the plan needs fixing, never a retry),
 * permission-revoked (403, and every later POST: the task pauses), unavailable (503 with
 * retryAfterMs: a bounded backoff, then again), reset-after-commit (committed, then the connection
 * is reset: the client learns nothing and must reconcile before any re-send).
 */
export const FAILURE_CLASS_FAULTS = ['invalid-argument', 'permission-revoked', 'unavailable', 'reset-after-commit'] as const;
export type ResponseFaultKind = (typeof RESPONSE_FAULTS)[number] | (typeof FAILURE_CLASS_FAULTS)[number];

/**
 * Applies to the `request`-th request the service receives (0-based, GET and POST alike), or —
 * anchored, so it stays on its request when other operations come and go — to the
 * `at.occurrence`-th request about `at.mentions` (an operation key, or a resource name).
 * Exactly one of `request` and `at`.
 */
export type ResponseFault = ResponseFaultBase & ({ request: number; at?: never } | { at: FaultAnchor; request?: never });

interface ResponseFaultBase {
  kind: 'response';
  fault: ResponseFaultKind;
  /** delay: extra virtual milliseconds before the response arrives. Default 1000. */
  delayMs?: number;
  /** accept-later: virtual milliseconds until the accepted commit lands. Default 50. */
  commitDelayMs?: number;
  /** unavailable: the wait the 503 asks for before the next try, in virtual milliseconds. Default 1000. */
  retryAfterMs?: number;
}

/**
 * The user saves `text` into `path` (durably): just before global step `atStep`, or — anchored to
 * the journal's own work, so it stays in its window when other operations come and go — just
 * before the first worker step after the worker's `afterAccess`-th step on that path (0-based).
 */
export type UserEditFault = { kind: 'user-edit'; path: string; text: string } & ({ atStep: number; afterAccess?: never } | { afterAccess: number; atStep?: never });

/** The task is delivered again: a further worker starts on it just before global step `atStep` (or at its anchor). */
export type DuplicateDeliveryFault = { kind: 'duplicate-delivery' } & EventPlacement;

/**
 * The task reaches worker `process`'s running incarnation a second time, just before global step
 * `atStep`: a second call of its run() in the same process (a server handling a retried request, a
 * workflow engine running an activity twice), sharing its module memory, pid and incarnation. The
 * two calls' steps interleave in the order they ask for them, as one process's promise chains do;
 * the process ends when both returned; the second call's error is its own answer (the process goes
 * on), the first's ends the process; a crash ends both. A worker not running then gets nothing.
 */
export type ConcurrentCallFault = { kind: 'concurrent-call'; process: number } & EventPlacement;

/** The service restarts just before global step `atStep` (or at its anchor); volatile idempotency memory is lost. */
export type ServiceRestartFault = { kind: 'service-restart' } & EventPlacement;

/**
 * The worker freezes for `pauseMs` of virtual time just as its step is granted, before the step
 * takes effect (a GC pause, SIGSTOP, a migrated VM): what it decided before the pause, it does after.
 * Placed by step number or anchor, as a crash is; an anchor with `when: 'after'` (format 3) freezes
 * it at its next step instead — right after the anchored step, before the next one takes effect
 * (after a lease check, before the send it gates).
 */
export type PauseFault = { kind: 'pause'; process: number; incarnation: number; pauseMs: number } & ({ step: number; at?: never } | { at: EventAnchor; step?: never });

/**
 * The shared store's answer to its `call`-th call (0-based, across workers) is lost, or a read is
 * stale (store.ts); or — anchored (format 3) — to its `at.occurrence`-th call whose request names
 * `at.mentions` (`<op> <key, lease or prefix>`: a key such as `task-1/projection`, a lease such as
 * `task-1`, or an op such as `renew`).
 */
export type StoreCallFault = { kind: 'store-call'; fault: StoreCallFaultKind } & ({ call: number; at?: never } | { at: FaultAnchor; call?: never });

/** The shared store restarts just before global step `atStep` (or at its anchor); volatile memory loses every key and lease. */
export type StoreRestartFault = { kind: 'store-restart' } & EventPlacement;

/** A human operator takes the task over just before global step `atStep` (or at its anchor), for `holdMs` (operator.ts). */
export type TakeoverFault = { kind: 'takeover'; holdMs: number } & EventPlacement;

/**
 * Someone outside the workers (a person at the console, a script, an older build) writes `value` to
 * `key` in the shared store just before global step `atStep`, unconditionally; `value: null` deletes
 * the key. The store's counterpart of a user's edit: what a journal reads back may not be its own.
 */
export type StoreEditFault = { kind: 'store-edit'; key: string; value: string | null } & EventPlacement;

/**
 * The user cancels the task just before global step `atStep`: the file named by task.cancelFile
 * (`<task id>.cancel` in the work folder) appears, durably, holding { reason }. From then on no
 * new side effect may start; what already happened stays recorded as happened.
 */
export type CancelFault = { kind: 'cancel'; reason?: string } & EventPlacement;

/**
 * The source changes: just before global step `atStep`, the service's resource `resource` takes
 * the value `value` (a new version). A node whose plan was made from the old version must not run.
 */
export type InputChangeFault = { kind: 'input-change'; resource: string; value: string } & EventPlacement;

export type Fault = InputChangeFault | CancelFault | CrashFault | IoErrorFault | ResponseFault | UserEditFault | DuplicateDeliveryFault | ConcurrentCallFault | ServiceRestartFault | StoreCallFault | StoreRestartFault | StoreEditFault | PauseFault | TakeoverFault;

/** A fault of one worker's own steps (it names a process and an incarnation): a crash, an I/O error, a pause. */
export type StepFault = CrashFault | IoErrorFault | PauseFault;
export const isStepFault = (f: Fault): f is StepFault => f.kind === 'crash' || f.kind === 'io-error' || f.kind === 'pause';

const FAULT_FIELDS = {
  crash: ['kind', 'process', 'incarnation', 'step', 'at', 'when', 'mode', 'tornKeepBytes', 'tail', 'keep'],
  'io-error': ['kind', 'process', 'incarnation', 'step', 'at', 'error', 'writtenBytes'],
  response: ['kind', 'request', 'at', 'fault', 'delayMs', 'commitDelayMs', 'retryAfterMs'],
  'user-edit': ['kind', 'path', 'text', 'atStep', 'afterAccess'],
  'duplicate-delivery': ['kind', 'atStep', 'at'],
  'concurrent-call': ['kind', 'atStep', 'at', 'process'],
  'service-restart': ['kind', 'atStep', 'at'],
  'store-call': ['kind', 'call', 'at', 'fault'],
  'store-restart': ['kind', 'atStep', 'at'],
  'store-edit': ['kind', 'atStep', 'at', 'key', 'value'],
  pause: ['kind', 'process', 'incarnation', 'step', 'at', 'pauseMs'],
  takeover: ['kind', 'atStep', 'at', 'holdMs'],
  cancel: ['kind', 'atStep', 'at', 'reason'],
  'input-change': ['kind', 'atStep', 'at', 'resource', 'value'],
} as const;
const FAULT_REQUIRED = { crash: ['kind', 'process', 'when'], 'io-error': ['kind', 'process', 'error'], response: ['kind', 'fault'], 'user-edit': ['kind', 'path', 'text'], 'duplicate-delivery': ['kind'], 'concurrent-call': ['kind'], 'service-restart': ['kind'], 'store-call': ['kind', 'fault'], 'store-restart': ['kind'], 'store-edit': ['kind', 'key', 'value'], pause: ['kind', 'process', 'pauseMs'], takeover: ['kind', 'holdMs'], cancel: ['kind'], 'input-change': ['kind', 'resource', 'value'] } as const;

/** Where a fault that is no worker's step lands: `atStep`, or (format 3) an anchor. Exactly one. */
function placement(value: Record<string, Json>, field: string, version: number): EventPlacement {
  if ((value.atStep === undefined) === (value.at === undefined)) {
    fail(field, 'needs exactly one of atStep and at', 'Say when it happens: "atStep": N (just before global step N), or "at": { "mentions": "post-a", "occurrence": N, "when": "before" } (around the N-th step that names post-a).');
  }
  if (value.atStep !== undefined) return { atStep: int(value.atStep, `${field}.atStep`) };
  needsAnchorVersion(version, `${field}.at`);
  return { at: parseAnchor(value.at as Json, `${field}.at`, true) };
}

function needsAnchorVersion(version: number, field: string): void {
  if (version < EVENT_ANCHOR_VERSION) fail(field, `is an anchor of a fault that format ${version} places by number only`, `Set "version": ${EVENT_ANCHOR_VERSION}, or place it by number.`);
}

export function parseFault(value: Json, field: string, version: number = EVENT_ANCHOR_VERSION): Fault {
  if (!isRecord(value)) fail(field, `must be an object, found ${describe(value)}`);
  misnamedKind(value, Object.keys(FAULT_FIELDS), field);
  const kind = oneOf(value.kind, ['crash', 'io-error', 'response', 'user-edit', 'duplicate-delivery', 'concurrent-call', 'service-restart', 'store-call', 'store-restart', 'store-edit', 'pause', 'takeover', 'cancel', 'input-change'] as const, `${field}.kind`);
  strict(value, field, FAULT_FIELDS[kind], FAULT_REQUIRED[kind]);
  switch (kind) {
    case 'crash': {
      if ((value.step === undefined) === (value.at === undefined)) {
        fail(field, 'needs exactly one of step and at', 'Say where the worker dies: "step": N (its N-th call), or "at": { "mentions": "post-a", "occurrence": N }.');
      }
      const who = { kind, process: int(value.process, `${field}.process`), incarnation: optional(value, 'incarnation', (v) => int(v, `${field}.incarnation`), 0) };
      const how = {
        when: oneOf(value.when, ['before', 'after'] as const, `${field}.when`),
        mode: optional(value, 'mode', (v) => oneOf(v, CRASH_MODES, `${field}.mode`), 'keep-all' as CrashMode),
      };
      const fault: CrashFault = value.step !== undefined ? { ...who, step: int(value.step, `${field}.step`), ...how } : { ...who, at: parseAnchor(value.at, `${field}.at`), ...how };
      if (value.tornKeepBytes !== undefined) fault.tornKeepBytes = int(value.tornKeepBytes, `${field}.tornKeepBytes`);
      if (value.tail !== undefined) fault.tail = oneOf(value.tail, CRASH_TAILS, `${field}.tail`);
      if (value.keep !== undefined) {
        if (!isRecord(value.keep)) fail(`${field}.keep`, `must be an object of path to count, found ${describe(value.keep)}`);
        fault.keep = Object.fromEntries(mapEntries(value.keep, `${field}.keep`, 'path to count').map(([p, n]) => [relativePath(p, `${field}.keep key ${shown(JSON.stringify(p))}`), int(n, `${field}.keep[${shown(JSON.stringify(p))}]`)]));
      }
      return fault;
    }
    case 'io-error': {
      if ((value.step === undefined) === (value.at === undefined)) {
        fail(field, 'needs exactly one of step and at', 'Say which call fails: "step": N (the worker\'s N-th call), or "at": { "mentions": "journal.jsonl", "occurrence": N }.');
      }
      const who = { kind, process: int(value.process, `${field}.process`), incarnation: optional(value, 'incarnation', (v) => int(v, `${field}.incarnation`), 0) };
      const what = { error: oneOf(value.error, IO_ERROR_CODES, `${field}.error`) };
      const fault: IoErrorFault = value.step !== undefined ? { ...who, step: int(value.step, `${field}.step`), ...what } : { ...who, at: parseAnchor(value.at, `${field}.at`), ...what };
      if (value.writtenBytes !== undefined) fault.writtenBytes = int(value.writtenBytes, `${field}.writtenBytes`);
      return fault;
    }
    case 'response': {
      if ((value.request === undefined) === (value.at === undefined)) {
        fail(field, 'needs exactly one of request and at', 'Say which request it hits: "request": N (the N-th the service receives), or "at": { "mentions": "post-a", "occurrence": N }.');
      }
      const what = { fault: oneOf(value.fault, [...RESPONSE_FAULTS, ...FAILURE_CLASS_FAULTS], `${field}.fault`) };
      const fault: ResponseFault = value.request !== undefined
        ? { kind, request: int(value.request, `${field}.request`), ...what }
        : { kind, at: parseAnchor(value.at, `${field}.at`), ...what };
      if (value.delayMs !== undefined) fault.delayMs = int(value.delayMs, `${field}.delayMs`);
      if (value.commitDelayMs !== undefined) fault.commitDelayMs = int(value.commitDelayMs, `${field}.commitDelayMs`);
      if (value.retryAfterMs !== undefined) fault.retryAfterMs = int(value.retryAfterMs, `${field}.retryAfterMs`);
      return fault;
    }
    case 'user-edit': {
      const path = relativePath(value.path, `${field}.path`);
      const text = str(value.text, `${field}.text`);
      if ((value.atStep === undefined) === (value.afterAccess === undefined)) {
        fail(field, 'needs exactly one of atStep and afterAccess', 'Say when the user saves: "atStep": N, or "afterAccess": N.');
      }
      return value.atStep !== undefined
        ? { kind, atStep: int(value.atStep, `${field}.atStep`), path, text }
        : { kind, afterAccess: int(value.afterAccess, `${field}.afterAccess`), path, text };
    }
    case 'duplicate-delivery':
    case 'service-restart':
    case 'store-restart':
      return { kind, ...placement(value, field, version) };
    case 'concurrent-call':
      return { kind, ...placement(value, field, version), process: optional(value, 'process', (v) => int(v, `${field}.process`), 0) };
    case 'input-change':
      return { kind, ...placement(value, field, version), resource: nonEmptyStr(value.resource, `${field}.resource`), value: str(value.value, `${field}.value`) };
    case 'cancel':
      return { kind, ...placement(value, field, version), ...(value.reason !== undefined ? { reason: str(value.reason, `${field}.reason`) } : {}) };
    case 'store-edit':
      return { kind, ...placement(value, field, version), key: nonEmptyStr(value.key, `${field}.key`), value: value.value === null ? null : str(value.value, `${field}.value`) };
    case 'takeover':
      return { kind, ...placement(value, field, version), holdMs: int(value.holdMs, `${field}.holdMs`, 1) };
    case 'store-call': {
      if ((value.call === undefined) === (value.at === undefined)) {
        fail(field, 'needs exactly one of call and at', 'Say which store call it hits: "call": N (the N-th the store receives), or "at": { "mentions": "task-1/projection", "occurrence": N }.');
      }
      const what = { fault: oneOf(value.fault, STORE_CALL_FAULTS, `${field}.fault`) };
      if (value.call !== undefined) return { kind, call: int(value.call, `${field}.call`), ...what };
      needsAnchorVersion(version, `${field}.at`);
      return { kind, at: parseAnchor(value.at as Json, `${field}.at`), ...what };
    }
    case 'pause': {
      if ((value.step === undefined) === (value.at === undefined)) {
        fail(field, 'needs exactly one of step and at', 'Say where the worker freezes: "step": N (its N-th call), or "at": { "mentions": "post-a", "occurrence": N }.');
      }
      const who = { kind, process: int(value.process, `${field}.process`), incarnation: optional(value, 'incarnation', (v) => int(v, `${field}.incarnation`), 0), pauseMs: int(value.pauseMs, `${field}.pauseMs`, 1) };
      if (value.step !== undefined) return { ...who, step: int(value.step, `${field}.step`) };
      const at = parseAnchor(value.at as Json, `${field}.at`, true);
      if (at.when !== undefined) needsAnchorVersion(version, `${field}.at.when`);
      return { ...who, at };
    }
  }
}

/** An anchor; `withWhen`: it may say `when` (before or after the step it names). */
function parseAnchor(value: Json, field: string, withWhen = false): EventAnchor {
  if (!isRecord(value)) fail(field, `must be an object, found ${describe(value)}`);
  strict(value, field, withWhen ? ['mentions', 'occurrence', 'when'] : ['mentions', 'occurrence'], ['mentions', 'occurrence']);
  const anchor: EventAnchor = { mentions: nonEmptyStr(value.mentions, `${field}.mentions`), occurrence: int(value.occurrence, `${field}.occurrence`) };
  if (withWhen && value.when !== undefined) anchor.when = oneOf(value.when, ['before', 'after'] as const, `${field}.when`);
  return anchor;
}

