/**
 * The fake service's types: its routes, its replies, what it records of each request, its effects
 * (service.ts holds the model; the contract's answers, contractAnswer.ts, share these).
 */
import type { EffectEvidence } from '../../model/evidence.js';
import type { ResponseFaultKind } from '../scenario/scenario.js';

/** An effect the service committed: the ground truth the judge reads (defined by the model). */
export type Effect = EffectEvidence;

/** The service's clock (the world's virtual clock): the time now, and an event later. */
export interface ServiceClock {
  readonly nowMs: number;
  at(delayMs: number, label: string, fire: () => void): unknown;
  /** The clock's time as a date, in ms since 1970 (a Retry-After date is said on it); the virtual epoch plus nowMs when absent. */
  readonly epochMs?: number;
}

/**
 * Where a request goes. Under a contract (contract/classify.ts) a publish carries its intent (the
 * text its digest is of) and its JSON body, and a query may ask by receipt or by a field of the
 * request (its key resolved when it arrives); `missing-key` is an effect route's request without a
 * key, `out-of-scope` a route the contract says is none of the test's business.
 */
export type ServiceRoute =
  | { kind: 'publish'; key: string; intent?: string; request?: unknown }
  | { kind: 'query'; key: string; by?: 'receipt' | 'filter'; receipt?: string; filter?: { field: string; value: string }; list?: string }
  | { kind: 'resource'; name: string }
  | { kind: 'missing-key'; route: string }
  | { kind: 'out-of-scope' }
  | { kind: 'unknown' };

/** The statuses whose response has no body, whatever the service said (fetch's null body statuses from 200 to 599, the range a contract may answer in). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

export interface ServiceReply {
  status: number;
  /** Response headers besides content-type (application/json unless one is given): a contract's replay flag, Retry-After. On the msw transport, every header msw answered with. */
  headers?: Record<string, string>;
  body: string;
  /** The body stream errors after its first half. */
  cut: boolean;
  /** drop: the response never reaches the client; reset: the connection is reset, the client's fetch fails at once. */
  deliver: 'respond' | 'drop' | 'reset';
  delayMs: number;
}

export interface ServiceRequestRecord {
  /** Under a contract: what its answer was in the contract's terms, and the status the wire said (when it differs from the model's). */
  answer?: string;
  wireStatus?: number;
  /** Under a contract: no route of it took the request (routed-requests). */
  unrouted?: boolean;
  /** For a request no route took: the path it was sent to (set by the world). */
  path?: string;
  /** Under a contract, a query that reads the service's effects themselves (by receipt, or a list by a field of the request), not its idempotency keys, and how many it found: its "none" is the truth, whatever the keys' memory. */
  readsEffects?: { found: number; digests: string[] };
  /** Under a contract with a key time-to-live: the key had expired, so this request found it forgotten. */
  expiredKey?: boolean;
  index: number;
  atMs: number;
  method: string;
  route: ServiceRoute;
  digest?: string;
  /** The fencing token the request carried (x-fencing-token). */
  fencingToken?: number;
  /** Refused for a stale fencing token: it had no effect and could have none. */
  fenced?: boolean;
  /** Refused (401) for a missing or wrong access token: it had no effect and could have none. */
  unauthorized?: boolean;
  /** Answered 503: the wait it asked for before the next try. */
  retryAfterMs?: number;
  /** Its response reached its sender (set by the world): not dropped, not reset, not given up on. */
  answered?: boolean;
  fault?: ResponseFaultKind;
  status: number;
  /** The request committed an effect now (accept-later commits are separate effects later). */
  committed: boolean;
  /** Trace position of the request's arrival (set by the world). */
  seq?: number;
  /** The incarnation that sent it, as worker-<pid>#<incarnation> (set by the world). */
  sender?: string;
  /** Trace position where the sender stopped waiting for it: the response arrived, it gave up, or it died (set by the world). */
  doneSeq?: number;
  /**
   * For a failure-class answer (400, 403, 503) to a publish that reached its sender: the key's
   * states as the journal's records showed them in the page cache at that moment (set by the
   * world; [] when it had none, absent when inspect() could not read them). What the hearer wrote
   * before it heard the answer, told from what it wrote after.
   */
  heardHistory?: string[];
}

