/**
 * What the judge reads: the shape of a simulation's result, declared here so the model imports
 * nothing of durasim's own. A SimulationResult satisfies it structurally.
 */
import type { StateNames } from './stateNames.js';

export interface OperationSpec {
  kind: 'publish' | 'lookup' | 'edit';
  key: string;
  body?: string;
  retrySafe?: boolean;
  resource?: string;
  path?: string;
  append?: string;
  /** A publish whose plan was made from this version of a service resource. */
  input?: { resource: string; version: string } | undefined;
}

export interface OperationHistory {
  kind: 'operation';
  /** The states the journal recorded, in order; [state] when it reported its current state only. */
  history: string[];
  /** 'state': the journal reported only its current state (see observed histories). */
  reported?: 'state';
  /** With the journal's own state names (stateNames.ts): its words for each entry of `history`, a folded entry's joined by "/". */
  names?: string[];
  digest?: string;
  receipt?: string;
}

export interface FileHistory {
  kind: 'file';
  path: string;
  history: string[];
  reported?: 'state';
  names?: string[];
  preserved: string[];
}

export type Records = Record<string, OperationHistory | FileHistory>;

/** An effect the service committed; the simulator's ServiceCore records exactly this. */
export interface EffectEvidence {
  key: string;
  digest: string;
  receipt: string;
  atMs: number;
  /** Index of the request that caused it; null for effects that existed before the run. */
  requestIndex: number | null;
  /** The fencing token its request carried, if any. */
  fencingToken?: number;
  /** Trace position of the commit. */
  seq?: number;
}

export interface RequestEvidence {
  index: number;
  atMs: number;
  method: string;
  route: { kind: string; key?: string; name?: string; by?: string };
  digest?: string;
  status: number;
  seq?: number;
  /** The incarnation that sent it, as worker-<pid>#<incarnation>. */
  sender?: string;
  /** The service refused it for a stale fencing token: it had no effect and could have none. */
  fenced?: boolean;
  /** Refused (401) for a missing or wrong access token: no effect. */
  unauthorized?: boolean;
  /** Answered 503 (unavailable): the wait it asked for before the next try, in ms. */
  retryAfterMs?: number;
  /** Its response reached its sender: not dropped, not reset, not given up on. */
  answered?: boolean;
  /** Trace position where its sender stopped waiting for it (answered, gave up, or died); absent while it waits. */
  doneSeq?: number;
  recordsAtArrival?: Records;
  /** The path it was sent to, for a request no route took (routed-requests). */
  path?: string;
  /** A query that read the service's effects themselves (not its keys' memory), and how many it found. */
  readsEffects?: { found: number; digests?: string[] };
  /** Under a contract: the status the wire said, when it differs from the model's `status` (a mismatch answered 422 is the model's 409). */
  wireStatus?: number;
  /** For a failure-class answer heard by its sender: the key's states in the page cache as it heard it (what it had written before). */
  heardHistory?: string[];
  /** For a write whose record was not durably dispatched: what only the page cache held then, per file. */
  unsyncedAtArrival?: string[];
  /** ... and the durability step each of those files was missing. */
  gapsAtArrival?: DurabilityGap[];
}

/**
 * A durability step a journal left out, as the disk's model sees it for one path: what a machine
 * crash then loses, and why. The fix differs per kind:
 * - file-fsync: the file's own writes were never fsynced (fsync the file before relying on it);
 * - folder-fsync: the file was fsynced, but the folder entry that names it (a create, or a rename
 *   onto it) was not (fsync the folder after creating or renaming into it);
 * - failed-fsync: an fsync of the file failed and the journal went on: Linux dropped those writes
 *   and a later fsync succeeds without them (rewrite the file, do not retry the fsync).
 */
export interface DurabilityGap {
  path: string;
  missing: 'file-fsync' | 'folder-fsync' | 'failed-fsync';
}

/** A crash's losses as the cause of a finding on its image: "; that crash lost …", or nothing when it lost nothing (or only other files). */
export function lostBy(gaps: readonly DurabilityGap[] | undefined, path?: string): string {
  const named = (gaps ?? []).filter((g) => path === undefined || g.path === path);
  return named.length === 0 ? '' : `; the crash lost ${named.map(describeGap).join('; ')}`;
}

/** The fix a gap names, in words. */
export function describeGap(gap: DurabilityGap): string {
  switch (gap.missing) {
    case 'file-fsync':
      return `${gap.path}: its writes were never fsynced (fsync the file before relying on it)`;
    case 'folder-fsync':
      return `${gap.path}: fsynced, but its folder was not after it was created or renamed into place (fsync the folder)`;
    case 'failed-fsync':
      return `${gap.path}: an fsync of it failed and the writes it dropped were trusted (a retried fsync succeeds without them: rewrite the file)`;
  }
}

export interface CrashEvidence {
  seq: number;
  timeMs: number;
  /** Durable records right after the crash. */
  records: Records;
  /** What the next incarnation reads. */
  visible: Records;
  /** Workers still running after the crash; their records continue without any recovery. */
  survivors: string[];
  /** Workers the crash killed, as worker-<pid>#<incarnation>. */
  killed?: string[];
  /** The task's files on the durable image right after the crash (undefined: missing). */
  files?: Record<string, string | undefined>;
  /** What the crash lost, per path, and the durability step that would have kept it (machine crashes only). */
  gaps?: DurabilityGap[];
}

/** One state of a key as durasim observed it: on the durable image after it changed, or on what the next incarnation read. */
export interface ObservedState {
  /** A state of the vocabulary, or 'absent' once a record that existed is gone. */
  state: string;
  /** Trace position of the observation. */
  seq: number;
  image: 'durable' | 'visible';
  /** With the journal's own state names: its word (words, joined by "/", for a state it reached by several of them in a row). */
  name?: string;
}
/** A receipt the durable records held for a key that a later snapshot no longer showed. */
export interface ReceiptLoss {
  key: string;
  receipt: string;
  /** Where a durable snapshot first held it. */
  heldSeq: number;
  /** Where a snapshot first showed it gone, and which image. */
  seq: number;
  image: 'durable' | 'visible';
  /** What the record held instead: another receipt, or null for none; absent when the record itself was gone. */
  now?: string | null;
}

/** Per key, every state observed, in order (consecutive repeats folded). */
export type ObservedHistories = Record<string, ObservedState[]>;

/** A call that reached the shared store, as its ground truth keeps it (simulator/store/store.ts). */
export interface StoreCallEvidence {
  index: number;
  /** Trace position of its arrival. */
  seq: number;
  /** The caller: worker-<pid>#<incarnation>. */
  by: string;
  /** The store's clock when it arrived. */
  storeTimeMs: number;
  request: { op: string; key?: string; prefix?: string; value?: string; name?: string; holder?: string; token?: number; ttlMs?: number; ifVersion?: number; ifAbsent?: boolean; force?: boolean; reason?: string; lease?: { name: string; token: number } };
  /** Whether it changed the store. */
  applied: boolean;
  answer: { ok: boolean; reason?: string; version?: number; lease?: { name: string; holder: string; token: number; expiresAtMs: number }; entry?: { key: string; value: string; version: number }; entries?: { key: string; value: string; version: number }[] };
  /** A timeout fault: the caller never heard the answer. */
  fault?: string;
}

export interface StoreEvidence {
  calls: StoreCallEvidence[];
  restarts: { seq: number; storeTimeMs: number; memory: 'durable' | 'volatile' }[];
  /** The store's clock at virtual time t (ms since the run began) reads t + offsetMs. */
  offsetMs: number;
}

/** Where the task's access token landed: a file (or a file's name), or a store key (or a key's name). */
export interface SecretSightingEvidence {
  seq: number;
  by: string;
  where: 'disk' | 'store';
  name: string;
}

/** The task's temp folder (task.temp): other tasks' files there, the steps that touched them, and what this task left. */
export interface TempEvidence {
  dir: string;
  /** Other tasks' temp files: in the folder before the run. */
  foreign: string[];
  /** Steps that removed, moved, replaced or opened for writing one of them; op says what, as 'unlinked it'. */
  touches: { seq: number; by: string; op: string; name: string }[];
  /** Files in the folder at the end that were not there before the run. */
  leftovers: string[];
}

export interface JudgeInput {
  scenario: {
    task: { id?: string; operations: OperationSpec[]; retryBudget?: { perOperation: number; perTask: number } };
    taskAfterRestart?: { operations: OperationSpec[] };
    /** contract: the user's own API, when the service speaks one (simulator/contract/contract.ts): what the judge reads of it. */
    service: { idempotencyMemory: 'durable' | 'volatile' | 'none'; query: boolean; resources: Record<string, string>; contract?: { queries: { by: string }[]; memory: string | { ttlMs: number } } };
    /** The scenario's faults; an input-change names its resource and new value. */
    faults: { kind: string; atStep?: number; resource?: string; value?: string | null }[];
    /** The files as they were before the run. */
    files?: Record<string, string>;
  };
  outcome: { kind: string; detail?: string; bound?: string };
  trace: readonly TraceLine[];
  effects: EffectEvidence[];
  requests: RequestEvidence[];
  crashes: CrashEvidence[];
  userEdits: { seq: number; timeMs: number; path: string; text: string }[];
  /** The end: records on both images; the task's files as processes see them, and on the durable image. */
  final: { durable: Records; visible: Records; files: Record<string, string | undefined>; durableFiles?: Record<string, string | undefined> };
  /** The sequence of states durasim observed per key (built by observedHistory.ts). */
  observed: ObservedHistories;
  /** Receipts the durable records held and a later snapshot lost (observedHistory.ts); absent from older evidence. */
  receiptLosses?: ReceiptLoss[];
  /** The shared store's ground truth; absent from evidence made before it existed. */
  store?: StoreEvidence;
  /** With a task that carries an access token: every place it landed on the disk or in the store. */
  secretSightings?: SecretSightingEvidence[];
  /** With a task that keeps temp files. */
  temp?: TempEvidence;
  /** Requests the journal sent to hosts other than the service's (they never reached it). */
  strayRequests?: { seq: number; sender?: string; method: string; url: string }[];
  /** The base URL the task names for the service. */
  serviceUrl?: string;
  /** Per publish key: the digest its task's body has under the service's intent rule (for records that keep no digest: recordedIntents.ts). */
  intentDigests?: Record<string, string>;
  /** The journal's own state names (JournalAdapter.states), when it has them: the records carry its words beside the model's states (stateWords.ts). */
  states?: StateNames;
  /**
   * Whether a journal in doubt can ask the service about a key without its receipt: under a
   * service contract, a query by the key or by a field of the journal's own request (a contract
   * whose queries take only the receipt offers none). Absent: `scenario.service.query`.
   */
  keyQuery?: boolean;
  /** Under a service contract whose service forgets a key: how long after its effect, in virtual ms. */
  keyTtlMs?: number;
}

/**
 * Whether the service promises by its contract to keep its keys — `memory` durable, or a time-to-live
 * (while it runs) — and keeps them in this run: then a send again under a key is how a journal in
 * doubt asks it (the service replays what it committed), as the IETF draft and the payments APIs
 * intend. durasim's own protocol promises nothing of its keys (its memory is drawn): none there.
 */
export function replayPromised(input: JudgeInput): boolean {
  const promised = input.scenario.service.contract?.memory;
  return (promised === 'durable' || typeof promised === 'object') && input.scenario.service.idempotencyMemory === 'durable';
}

/** Whether the service offers a query a journal in doubt can ask about a key (`keyQuery`). */
export function keyQueryOffered(input: JudgeInput): boolean {
  return input.keyQuery ?? input.scenario.service.query;
}

/** The virtual time of a trace position (ms since the run began). */
function timeAt(input: JudgeInput, seq: number): number {
  const line = input.trace[seq]?.seq === seq ? input.trace[seq] : input.trace.find((l) => l.seq === seq);
  return line?.timeMs ?? 0;
}

/** Trace operations by which a worker learns the time: a read of a clock, or a timer of its own firing. */
const CLOCK_LOOKS = new Set(['Date.now', 'new Date()', 'Date()', 'performance.now', 'clock.now', 'process.hrtime', 'process.hrtime.bigint', 'process.uptime', 'Event.timeStamp', 'Intl.DateTimeFormat.format', 'Intl.DateTimeFormat.formatToParts', 'timer']); // allow-ambient: the names of clock reads, not reads

/**
 * When a request's sender last learned the time before sending it (its last look at a clock, or a
 * timer of its own firing): what it could know when it decided to send. A worker frozen after that
 * (a GC pause, SIGSTOP) sends late without knowing it. No look at all: the request's own arrival.
 */
export function decidedAtMs(input: JudgeInput, request: RequestEvidence): number {
  const [worker, incarnation] = (request.sender ?? '').split('#');
  const seq = request.seq ?? 0;
  for (let i = Math.min(seq, input.trace.length) - 1; i >= 0; i--) {
    const line = input.trace[i] as TraceLine;
    if (line.actor === worker && String(line.incarnation ?? 0) === incarnation && CLOCK_LOOKS.has(line.op)) return line.timeMs ?? request.atMs;
  }
  return request.atMs;
}

/**
 * Under a key time-to-live: whether it ran out, by trace position `seq`, since the key's first send
 * as its journal knew it — the first `dispatched` observed for it, or its first request, whichever
 * came first. The service may have forgotten the key since: a replay proves nothing any more, and a
 * send again may commit twice.
 */
export function keyMayHaveExpired(input: JudgeInput, key: string, seq: number): boolean {
  const ttl = input.keyTtlMs;
  if (ttl === undefined) return false;
  const dispatched = (input.observed[key] ?? []).find((o) => o.state === 'dispatched' && o.seq <= seq);
  const firstRequest = input.requests.find((r) => r.method === 'POST' && r.route.key === key && (r.seq ?? 0) <= seq);
  const starts = [...(dispatched ? [timeAt(input, dispatched.seq)] : []), ...(firstRequest ? [firstRequest.atMs] : [])];
  return starts.length > 0 && timeAt(input, seq) - Math.min(...starts) >= ttl;
}

export interface TraceLine {
  seq: number;
  actor: string;
  op: string;
  detail: string;
  /** A worker's line: its incarnation (the actor names the worker slot). */
  incarnation?: number;
  /** Virtual time of the line, in ms since the run began. */
  timeMs?: number;
}

/**
 * The source changes of the run (input-change faults) where they landed: each trace line of a
 * change, with the resource and the value it names (a line that names none is paired with its
 * fault: they fire in order of their step, ties in scenario order).
 */
export function sourceChanges(input: JudgeInput): { seq: number; resource: string; value: string }[] {
  const faults = input.scenario.faults
    .map((fault, index) => ({ fault, index }))
    .filter(({ fault }) => fault.kind === 'input-change')
    .sort((a, b) => (a.fault.atStep ?? 0) - (b.fault.atStep ?? 0) || a.index - b.index);
  const lines = input.trace.filter((line) => line.actor === 'user' && line.op === 'input-change');
  return lines.flatMap((line, i) => {
    // The line names the resource and its new value (an anchored change fires in no step order the faults' list shows).
    const said = /^the service's resource (\S+) ← (".*")$/.exec(line.detail);
    const value = said?.[2] === undefined ? undefined : (JSON.parse(said[2]) as unknown);
    if (said?.[1] !== undefined && typeof value === 'string') return [{ seq: line.seq, resource: said[1], value }];
    const fault = faults[i]?.fault;
    return fault?.resource !== undefined && typeof fault.value === 'string' ? [{ seq: line.seq, resource: fault.resource, value: fault.value }] : [];
  });
}

/** A named image of the journal's records: where and when the judge read them. */
export interface Checkpoint {
  label: string;
  seq: number;
  records: Records;
  /** After a machine crash: what it lost, and the durability step that would have kept it. */
  gaps?: DurabilityGap[];
}

/** Every image a safety check should hold on: after each crash (durable), and at the end (durable and visible). */
export function checkpoints(input: JudgeInput): Checkpoint[] {
  const end = Math.max(0, input.trace.length - 1);
  return [
    ...input.crashes.map((c, i) => ({ label: `durable image after crash ${i + 1}`, seq: c.seq, records: c.records, ...(c.gaps !== undefined && c.gaps.length > 0 ? { gaps: c.gaps } : {}) })),
    { label: 'durable image at the end', seq: end, records: input.final.durable },
    { label: 'visible records at the end', seq: end, records: input.final.visible },
  ];
}

export function operationSpec(input: JudgeInput, key: string): OperationSpec | undefined {
  return input.scenario.task.operations.find((op) => op.key === key) ?? input.scenario.taskAfterRestart?.operations.find((op) => op.key === key);
}

/** Effects committed by requests during the run (not those that existed before it). */
export function runEffects(input: JudgeInput): EffectEvidence[] {
  return input.effects.filter((e) => e.requestIndex !== null);
}

export function endStep(input: JudgeInput): number {
  return Math.max(0, input.trace.length - 1);
}

export function short(digest: string | undefined): string {
  return digest === undefined ? 'none' : digest.slice(0, 12);
}

export function effectsUpTo(input: JudgeInput, seq: number): EffectEvidence[] {
  return input.effects.filter((e) => (e.seq ?? 0) <= seq);
}

/** The keys the journal was asked to run, in either incarnation's task. */
export function taskKeys(input: JudgeInput): Set<string> {
  return new Set([...input.scenario.task.operations, ...(input.scenario.taskAfterRestart?.operations ?? [])].map((op) => op.key));
}

/** The states observed for `key` up to trace position `seq` (inclusive). */
function observedUpTo(input: JudgeInput, key: string, seq: number): string[] {
  return (input.observed[key] ?? []).filter((o) => o.seq <= seq).map((o) => o.state);
}

/** Whether `key` was ever in `state` by trace position `seq`: in what was observed, or in the recorded history. */
export function everIn(input: JudgeInput, key: string, state: string, seq: number, record?: OperationHistory | FileHistory): boolean {
  return (record?.history.includes(state) ?? false) || observedUpTo(input, key, seq).includes(state);
}
