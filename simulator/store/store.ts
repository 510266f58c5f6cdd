/**
 * The shared store: a key-value service with compare-and-set and leases, apart from the disk and
 * the HTTP service, as a database, Redis or DynamoDB is to a journal that coordinates through it.
 *
 * Model:
 * - Every key holds { value, version }. Versions come from one counter for the whole store (a
 *   revision, as in etcd), so a key's version only grows and a deleted-then-recreated key never
 *   reuses one — unless a store with volatile memory restarts: then every key, lease and the
 *   counter itself are gone, and versions and fencing tokens start again from 1.
 * - A put may be conditional: ifVersion (the key holds exactly that version) or ifAbsent. A failed
 *   condition changes nothing and answers the current version. A delete may be conditional too.
 * - A conditional write may name a lease it is made under (lease: { name, token }): it applies only
 *   while that lease is held with that token, on the store's clock — the fencing token checked by
 *   the store itself, so a holder that paused past its lease cannot advance (answer reason 'lease').
 * - ttlMs: the key expires ttlMs after the put, on the store's clock.
 * - The store's clock is the world's virtual clock plus scenario.store.clockSkewMs (its skew
 *   against every worker's clock). Expiry, leases and `now()` read it.
 * - Leases: acquire succeeds when the lease is free or expired, and grants a fencing token from a
 *   counter that only grows (volatile memory excepted). renew and release need the current token
 *   and an unexpired lease; a forced release needs a reason and is an audited event.
 * - Faults (scenario, by the index of the call reaching the store): timeout-after-apply (applied,
 *   the caller never hears back), timeout-before-apply (not applied, same silence), stale-read (a
 *   get or list answers each key as it stood before its last write; only with consistency
 *   "stale-reads"). A store-restart fault restarts it at a global step.
 * - Ground truth: every call that reached the store, applied or refused, in order, with the
 *   store's time and the caller: what the judge reads.
 */

import type { StoreEntry, StoreView } from '../../model/contract/contract.js';

export type StoreCallFaultKind = 'timeout-after-apply' | 'timeout-before-apply' | 'stale-read';
export const STORE_CALL_FAULTS: readonly StoreCallFaultKind[] = ['timeout-after-apply', 'timeout-before-apply', 'stale-read'];

export interface ScenarioStore {
  /** durable: a restart keeps every key and lease; volatile: a restart forgets them all. */
  memory: 'durable' | 'volatile';
  /** Virtual milliseconds from a call to its answer. */
  latencyMs: number;
  /** stale-reads lets stale-read faults answer reads with the value before a key's last write. */
  consistency: 'linearizable' | 'stale-reads';
  /** The store's clock minus the workers' clock, in milliseconds. */
  clockSkewMs: number;
  /** Virtual milliseconds after which a call that gets no answer rejects with StoreTimeoutError. */
  timeoutMs: number;
}

export const DEFAULT_STORE: ScenarioStore = { memory: 'durable', latencyMs: 1, consistency: 'linearizable', clockSkewMs: 0, timeoutMs: 1000 };


export interface LeaseState {
  name: string;
  holder: string;
  token: number;
  expiresAtMs: number;
  /** Renewals since it was acquired. */
  renewals: number;
}

/** A call as it reached the store. */
export type StoreRequest =
  | { op: 'get'; key: string }
  | { op: 'list'; prefix: string }
  | { op: 'put'; key: string; value: string; ifVersion?: number; ifAbsent?: boolean; ttlMs?: number; lease?: { name: string; token: number } }
  | { op: 'delete'; key: string; ifVersion?: number; lease?: { name: string; token: number } }
  | { op: 'now' }
  | { op: 'acquire'; name: string; holder: string; ttlMs: number }
  | { op: 'renew'; name: string; token: number; ttlMs: number }
  | { op: 'release'; name: string; token?: number; force?: boolean; reason?: string };

export type StoreAnswer =
  | { ok: true; entry?: StoreEntry; entries?: StoreEntry[]; version?: number; nowMs?: number; lease?: LeaseState }
  | { ok: false; reason: 'conflict' | 'lease' | 'held' | 'not-holder' | 'expired'; version?: number; lease?: LeaseState };

/** One line of the store's ground truth. */
export interface StoreCall {
  /** Index among the calls that reached the store. */
  index: number;
  /** The trace position of the call's arrival. */
  seq: number;
  /** The caller: worker-<pid>#<incarnation>. */
  by: string;
  /** The store's clock when it arrived. */
  storeTimeMs: number;
  request: StoreRequest;
  /** Whether the call changed the store (a timeout-before-apply never does). */
  applied: boolean;
  answer: StoreAnswer;
  fault?: StoreCallFaultKind;
}

interface Slot {
  value: string;
  version: number;
  expiresAtMs?: number;
  /** The value and version before the last write (what a stale read answers). */
  previous?: { value: string; version: number } | null;
}

export class StoreCore {
  readonly calls: StoreCall[] = [];
  /** Restarts, with the store's time and the trace position. */
  readonly restarts: { seq: number; storeTimeMs: number; memory: 'durable' | 'volatile' }[] = [];
  /** Bumped by every applied change and every restart: inspect() is asked again when it moves. */
  changes = 0;
  private slots = new Map<string, Slot>();
  private leases = new Map<string, LeaseState>();
  private revision = 0;
  private fencing = 0;

  constructor(
    readonly config: ScenarioStore,
    /** The fault, if any, for the store's `index`-th call (0-based, across workers), the request it carries. */
    private readonly faultFor: (index: number, request: StoreRequest) => StoreCallFaultKind | undefined,
    private readonly worldNowMs: () => number,
  ) {}

  /** The store's clock: the world's plus the skew. */
  nowMs(): number {
    return this.worldNowMs() + this.config.clockSkewMs;
  }

  restart(seq: number): void {
    this.restarts.push({ seq, storeTimeMs: this.nowMs(), memory: this.config.memory });
    this.changes++;
    if (this.config.memory === 'durable') return;
    this.slots = new Map();
    this.leases = new Map();
    this.revision = 0;
    this.fencing = 0;
  }

  /** What the key holds now (expired keys are gone). */
  private live(key: string): Slot | undefined {
    const slot = this.slots.get(key);
    if (slot?.expiresAtMs !== undefined && slot.expiresAtMs <= this.nowMs()) {
      this.slots.delete(key);
      return undefined;
    }
    return slot;
  }

  private liveLease(name: string): LeaseState | undefined {
    const lease = this.leases.get(name);
    return lease && lease.expiresAtMs > this.nowMs() ? lease : undefined;
  }

  /** A read-only view of the store as it stands (for inspect and the judge). */
  view(): StoreView {
    return { get: (key) => this.entryOf(key), list: (prefix) => this.listOf(prefix, false) };
  }

  private entryOf(key: string, stale = false): StoreEntry | undefined {
    const slot = this.live(key);
    if (!slot) return undefined;
    if (stale && slot.previous !== undefined) return slot.previous === null ? undefined : { key, ...slot.previous };
    return { key, value: slot.value, version: slot.version };
  }

  private listOf(prefix: string, stale: boolean): StoreEntry[] {
    return [...this.slots.keys()].filter((k) => k.startsWith(prefix)).sort().flatMap((k) => {
      const entry = this.entryOf(k, stale);
      return entry ? [entry] : [];
    });
  }

  /** A call arrives: the fault for its index decides whether it applies; the ground truth keeps it. */
  call(request: StoreRequest, by: string, seq: number): StoreCall {
    const index = this.calls.length;
    const fault = this.faultFor(index, request);
    const storeTimeMs = this.nowMs();
    const applies = fault !== 'timeout-before-apply';
    const answer = applies ? this.apply(request, fault === 'stale-read' && this.config.consistency === 'stale-reads') : { ok: false as const, reason: 'conflict' as const };
    const changed = applies && answer.ok && ['put', 'delete', 'acquire', 'renew', 'release'].includes(request.op);
    const call: StoreCall = { index, seq, by, storeTimeMs, request, applied: changed, answer, ...(fault ? { fault } : {}) };
    this.calls.push(call);
    if (changed) this.changes++;
    return call;
  }

  private apply(request: StoreRequest, stale: boolean): StoreAnswer {
    switch (request.op) {
      case 'get':
        return { ok: true, ...(this.entryOf(request.key, stale) ? { entry: this.entryOf(request.key, stale) as StoreEntry } : {}) };
      case 'list':
        return { ok: true, entries: this.listOf(request.prefix, stale) };
      case 'now':
        return { ok: true, nowMs: this.nowMs() };
      case 'put': {
        if (request.lease && this.liveLease(request.lease.name)?.token !== request.lease.token) return { ok: false, reason: 'lease' };
        const slot = this.live(request.key);
        if ((request.ifAbsent && slot) || (request.ifVersion !== undefined && slot?.version !== request.ifVersion)) return { ok: false, reason: 'conflict', ...(slot ? { version: slot.version } : {}) };
        const version = ++this.revision;
        this.slots.set(request.key, {
          value: request.value,
          version,
          ...(request.ttlMs !== undefined ? { expiresAtMs: this.nowMs() + request.ttlMs } : {}),
          previous: slot ? { value: slot.value, version: slot.version } : null,
        });
        return { ok: true, version };
      }
      case 'delete': {
        if (request.lease && this.liveLease(request.lease.name)?.token !== request.lease.token) return { ok: false, reason: 'lease' };
        const slot = this.live(request.key);
        if (request.ifVersion !== undefined && slot?.version !== request.ifVersion) return { ok: false, reason: 'conflict', ...(slot ? { version: slot.version } : {}) };
        if (!slot) return { ok: false, reason: 'conflict' };
        this.slots.delete(request.key);
        return { ok: true, version: slot.version };
      }
      case 'acquire': {
        const held = this.liveLease(request.name);
        if (held) return { ok: false, reason: 'held', lease: { ...held } };
        const lease: LeaseState = { name: request.name, holder: request.holder, token: ++this.fencing, expiresAtMs: this.nowMs() + request.ttlMs, renewals: 0 };
        this.leases.set(request.name, lease);
        return { ok: true, lease: { ...lease } };
      }
      case 'renew': {
        const lease = this.leases.get(request.name);
        if (!lease || lease.token !== request.token) return { ok: false, reason: 'not-holder', ...(lease ? { lease: { ...lease } } : {}) };
        if (lease.expiresAtMs <= this.nowMs()) return { ok: false, reason: 'expired', lease: { ...lease } };
        lease.expiresAtMs = this.nowMs() + request.ttlMs;
        lease.renewals++;
        return { ok: true, lease: { ...lease } };
      }
      case 'release': {
        const lease = this.liveLease(request.name);
        if (!lease) return { ok: false, reason: 'expired' };
        if (!request.force && lease.token !== request.token) return { ok: false, reason: 'not-holder', lease: { ...lease } };
        this.leases.delete(request.name);
        return { ok: true, lease: { ...lease } };
      }
    }
  }
}

/** One line for the trace: what reached the store and what it answered. */
export function describeStoreCall(call: StoreCall): string {
  const r = call.request;
  const what = (() => {
    switch (r.op) {
      case 'get': return `get ${r.key}`;
      case 'list': return `list ${r.prefix}*`;
      case 'now': return 'now';
      case 'put': return `put ${r.key}${r.ifVersion !== undefined ? ` if v${r.ifVersion}` : r.ifAbsent ? ' if absent' : ''}${r.lease ? ` under lease ${r.lease.name} token ${r.lease.token}` : ''}${r.ttlMs !== undefined ? ` ttl ${r.ttlMs}ms` : ''}`;
      case 'delete': return `delete ${r.key}${r.ifVersion !== undefined ? ` if v${r.ifVersion}` : ''}${r.lease ? ` under lease ${r.lease.name} token ${r.lease.token}` : ''}`;
      case 'acquire': return `acquire lease ${r.name} for ${r.holder} (${r.ttlMs}ms)`;
      case 'renew': return `renew lease ${r.name} token ${r.token} (${r.ttlMs}ms)`;
      case 'release': return `${r.force ? 'force-release' : 'release'} lease ${r.name}${r.reason ? ` (reason: ${r.reason})` : ''}`;
    }
  })();
  const a = call.answer;
  const result = !call.applied && call.fault === 'timeout-before-apply' ? 'not applied' : a.ok
    ? a.version !== undefined ? `ok v${a.version}` : a.lease ? `ok token ${a.lease.token} until ${a.lease.expiresAtMs}` : a.entry ? `v${a.entry.version}` : a.entries ? `${a.entries.length} keys` : a.nowMs !== undefined ? `${a.nowMs}` : 'absent'
    : `refused: ${a.reason}${a.version !== undefined ? ` (now v${a.version})` : ''}${a.lease ? ` (held by ${a.lease.holder})` : ''}`;
  return `#${call.index} ${call.by} ${what} → ${result}${call.fault ? ` [${call.fault}]` : ''}`;
}

/** A store call's step line after its op (`store.put task-1/projection`, `store.renew lease task-1`): the key, the prefix or the lease it names. */
export function storeStepDetail(request: StoreRequest): string {
  switch (request.op) {
    case 'get':
    case 'put':
    case 'delete':
      return request.key;
    case 'list':
      return `${request.prefix}*`;
    case 'now':
      return '';
    default:
      return `lease ${request.name}`;
  }
}
