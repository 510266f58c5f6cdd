/**
 * Fake service: the ground truth of external effects, and its fault model.
 *
 * Semantics (the model in model/ checks these):
 * - POST /operations/:key with a body commits one effect per key: 201 { key, digest, state:
 *   'committed', receipt }. The same key and digest again replays the stored receipt (200), no new
 *   effect; the same key with another digest answers 409 { error: 'fingerprint_conflict' }.
 * - GET /operations/:key answers 200 with the stored receipt, or 404 (also while an accepted
 *   commit has not landed); 405 when the scenario offers no query. GET /resources/:name serves
 *   the scenario's resources, as input-change events change them (a new version of a source).
 * - Idempotency memory is 'durable' (survives a restart), 'volatile' (a restart forgets every
 *   key, so a replay after it makes a second effect) or 'none' (no deduplication at all: every
 *   POST commits a new effect, never 409; GET finds the latest effect under the key). Effects
 *   themselves are never forgotten.
 * - Fencing: a POST may carry `x-fencing-token: N` (the token of a lease from the shared store).
 *   The service remembers the highest token it accepted; a POST with a lower one is refused with
 *   412 { error: 'stale_fencing_token', highest } before anything else, so a paused former lease
 *   holder cannot commit once its successor has been heard. A GET of an operation may carry one
 *   too: it raises the highest token (a successor that only asked has been heard as well) and is
 *   served whatever its token (a read has no effect to fence). A volatile service forgets the
 *   highest token on restart, as it forgets keys.
 * - Access token: when the task carries one, a request that sends an authorization header must send
 *   `Bearer <token>`; anything else is refused with 401 { error: 'unauthorized' } before all else.
 *   A request with no credential is served (a journal that never touches the token is not failed).
 * Faults apply to the n-th request received (0-based): lost response after commit, 500 before or
 * after commit, 202 with the commit landing later, a mangled body (malformed, null, wrong key,
 * wrong digest, empty receipt, pending state, cut mid-read) or a delayed response; and the
 * failure classes: 400 for invalid arguments (and for every later POST of that key and body),
 * 403 for a revoked permission (and for every later POST), 503 asking for a wait (retryAfterMs,
 * nothing committed), and a connection reset after the commit.
 */
import { digestOf } from '../../model/contract/digest.js';
import { invariant } from '../invariant.js';
import { keyMemoryOf, type ResponseFault, type ScenarioService } from '../scenario/scenario.js';
import { intentOf } from '../contract/classify.js';
import { parseJsonBody } from '../contract/jsonPointer.js';
import { ContractFace } from './contractFace.js';
import { answerUnderContract, askedKey, plainRoute } from './contractAnswer.js';

export type { Effect, ServiceClock, ServiceRoute, ServiceReply, ServiceRequestRecord } from './serviceTypes.js';
import type { Effect, ServiceClock, ServiceRoute, ServiceReply, ServiceRequestRecord } from './serviceTypes.js';

export type ServiceEvent =
  | { kind: 'commit'; effect: Effect }
  | { kind: 'restart'; forgotKeys: number };

interface Stored {
  digest: string;
  receipt: string;
  state: 'committed' | 'pending';
  /** Under a contract: when its effect was committed (a key's time-to-live runs from then), and the request's JSON body (the answer may echo it). */
  atMs?: number;
  request?: unknown;
}

const JSON_NOT_FOUND = JSON.stringify({ error: 'not_found' });

export class ServiceCore {
  readonly effects: Effect[] = [];
  readonly requests: ServiceRequestRecord[] = [];
  // The members below without `private` are shared with the contract's answers (contractAnswer.ts), nobody else.
  memory = new Map<string, Stored>();
  /** The highest fencing token accepted so far. */
  highestToken = -Infinity;
  private bearer: string | undefined;
  /** The resources as they are now: the scenario's, changed by input-change events. */
  private readonly resources: Record<string, string>;
  /** permission-revoked was answered: every POST from now on is refused (403). */
  revoked = false;
  /** key and digest pairs an invalid-argument fault refused: refused again (400) whenever they come back. */
  readonly invalid = new Set<string>();
  private faults = new Map<number, ResponseFault>();
  /** Faults anchored to the n-th request about a key or resource, and how many such requests came. */
  private readonly anchored: ResponseFault[] = [];
  private readonly about = new Map<string, number>();
  /** The contract's face, when the scenario scripts the user's own API (contractFace.ts); undefined: durasim's own protocol. */
  readonly face: ContractFace | undefined;
  /** Under a contract with an in-progress answer: per key, until when its request is still being processed (its answer not yet sent). */
  readonly processing = new Map<string, number>();
  /** Under a contract: each effect's request body, by receipt (a query may answer it, or filter on it). */
  readonly requestOf = new Map<string, unknown>();

  constructor(
    readonly config: ScenarioService,
    faults: readonly ResponseFault[],
    readonly clock: ServiceClock,
    private readonly onEvent: (event: ServiceEvent) => void = () => {},
  ) {
    this.resources = { ...config.resources };
    for (const fault of faults) {
      if (fault.request === undefined) this.anchored.push(fault);
      else if (!this.faults.has(fault.request)) this.faults.set(fault.request, fault);
    }
    this.face = config.contract ? new ContractFace(config.contract) : undefined;
    const firstRoute = config.contract?.effects[0];
    for (const { key, body } of config.existing) this.commit(key, digestOf(firstRoute ? intentOf(firstRoute, body) : body), null, firstRoute ? parseJsonBody(body)?.value : undefined);
  }

  receive(method: string, route: ServiceRoute, body: string, credentials: RequestCredentials = {}): ServiceReply {
    const index = this.requests.length;
    if (this.face && route.kind === 'query' && route.by !== undefined) route = { ...route, key: askedKey(this, route) };
    const fault = this.faults.get(index) ?? this.anchoredFault(route);
    const { fencingToken } = credentials;
    const record: ServiceRequestRecord = { index, atMs: this.clock.nowMs, method, route: this.face ? plainRoute(route) : route, status: 0, committed: false, ...(fencingToken !== undefined ? { fencingToken } : {}) };
    if (fault) record.fault = fault.fault;
    this.requests.push(record);
    // A task with an access token: a request that sends a credential must send exactly that one (refused before all else).
    if (this.bearer !== undefined && credentials.authorization !== undefined && credentials.authorization !== `Bearer ${this.bearer}`) {
      record.unauthorized = true;
      record.status = 401;
      return this.reply(401, { error: 'unauthorized' }, undefined);
    }
    if (this.face) return answerUnderContract(this, this.face, route, body, fault, record); // it keeps the model's status in the record
    const reply = this.answer(route, body, fault, record);
    record.status = reply.status;
    return reply;
  }

  /** Adds a fault for a request that has not arrived yet (the first fault for an index wins). */
  scheduleFault(fault: ResponseFault & { request: number }): void {
    if (fault.request < this.requests.length) throw new Error(`request ${fault.request} has already arrived`);
    if (!this.faults.has(fault.request)) this.faults.set(fault.request, fault);
  }

  /** The first anchored fault for this request's rank among the requests about its key or resource; counts it. */
  private anchoredFault(route: ServiceRoute): ResponseFault | undefined {
    if (this.anchored.length === 0) return undefined;
    const subject = route.kind === 'resource' ? route.name : route.kind === 'publish' || route.kind === 'query' ? route.key : undefined;
    if (subject === undefined) return undefined;
    const rank = this.about.get(subject) ?? 0;
    this.about.set(subject, rank + 1);
    return this.anchored.find((f) => f.at?.mentions === subject && f.at.occurrence === rank);
  }

  /** What the service keeps of its keys: the scenario's, unless a contract says its service forgets them (volatile) or keeps none. */
  get keyMemory(): ScenarioService['idempotencyMemory'] {
    return keyMemoryOf(this.config);
  }

  /** A resource's value as it is now (durasim's lookup route, under a contract too). */
  resourceValue(name: string): string | undefined {
    return this.resources[name];
  }

  restart(): void {
    const forgotKeys = this.keyMemory === 'volatile' ? this.memory.size : 0;
    if (this.keyMemory === 'volatile') {
      this.memory.clear();
      this.highestToken = -Infinity;
    }
    this.onEvent({ kind: 'restart', forgotKeys });
  }

  /** The source changes: the resource answers this value (a new version) from now on. */
  changeResource(name: string, value: string): void {
    this.resources[name] = value;
  }

  /** From now on a request that sends an authorization header must send `Bearer <token>`, or it is refused (401) with no effect. */
  requireBearer(token: string): void {
    this.bearer = token;
  }

  /** Raises the lowest fencing token accepted (an operator's takeover): older tokens are refused from now on. */
  fence(token: number): void {
    this.highestToken = Math.max(this.highestToken, token);
  }

  effectsFor(key: string): Effect[] {
    return this.effects.filter((e) => e.key === key);
  }

  private answer(route: ServiceRoute, body: string, fault: ResponseFault | undefined, record: ServiceRequestRecord): ServiceReply {
    const kind = fault?.fault;
    if (route.kind === 'publish') record.digest = digestOf(body);
    if (kind === '500-before-commit') return this.reply(500, { error: 'internal' }, fault);
    if (kind === 'unavailable') {
      record.retryAfterMs = fault?.retryAfterMs ?? 1000;
      return this.reply(503, { error: 'unavailable', retryAfterMs: record.retryAfterMs }, fault);
    }
    switch (route.kind) {
      case 'publish': {
        if (record.fencingToken !== undefined) {
          if (record.fencingToken < this.highestToken) {
            record.fenced = true;
            return this.reply(412, { error: 'stale_fencing_token', highest: this.highestToken }, fault);
          }
          this.highestToken = record.fencingToken;
        }
        const digest = record.digest as string;
        // Sticky refusals: a permission once revoked stays revoked; arguments once invalid stay invalid.
        if (kind === 'permission-revoked') this.revoked = true;
        if (this.revoked) return this.reply(403, { error: 'permission_revoked' }, fault);
        if (kind === 'invalid-argument') this.invalid.add(`${route.key}\n${digest}`);
        if (this.invalid.has(`${route.key}\n${digest}`)) return this.reply(400, { error: 'invalid_argument', key: route.key }, fault);
        const stored = this.config.idempotencyMemory === 'none' ? undefined : this.memory.get(route.key);
        if (stored && stored.digest !== digest) return this.reply(409, { error: 'fingerprint_conflict' }, fault);
        if (stored?.state === 'pending') return this.reply(202, { key: route.key, digest, state: 'pending' }, fault);
        if (stored) {
          // Read back what commit() wrote: a replay answers with the receipt of an effect that exists.
          invariant(this.effects.some((e) => e.key === route.key && e.receipt === stored.receipt), `replay of ${route.key} names a receipt no effect has`);
          return this.reply(200, this.receiptBody(route.key, stored), fault);
        }
        if (kind === 'accept-later') {
          if (this.config.idempotencyMemory !== 'none' || this.memory.get(route.key)?.state !== 'committed') this.memory.set(route.key, { digest, receipt: '', state: 'pending' });
          this.clock.at(fault?.commitDelayMs ?? 50, `service commits ${route.key}`, () => this.commit(route.key, digest, record.index));
          return this.reply(202, { key: route.key, digest, state: 'pending' }, fault);
        }
        const effect = this.commit(route.key, digest, record.index);
        record.committed = true;
        return this.reply(201, this.receiptBody(route.key, { digest, receipt: effect.receipt, state: 'committed' }), fault);
      }
      case 'query': {
        if (!this.config.query) return this.reply(405, { error: 'query_not_supported' }, fault);
        if (record.fencingToken !== undefined && record.fencingToken > this.highestToken) this.highestToken = record.fencingToken;
        const stored = this.memory.get(route.key);
        if (!stored || stored.state !== 'committed') return this.rawReply(404, JSON_NOT_FOUND, fault);
        return this.reply(200, this.receiptBody(route.key, stored), fault);
      }
      case 'resource': {
        const value = this.resources[route.name];
        if (value === undefined) return this.rawReply(404, JSON_NOT_FOUND, fault);
        return this.reply(200, { resource: route.name, value }, fault);
      }
      case 'unknown':
      case 'missing-key': // (only a contract's routes are these: durasim's own protocol never makes them)
      case 'out-of-scope':
        return this.rawReply(404, JSON.stringify({ error: 'no_route' }), fault);
    }
  }

  commit(key: string, digest: string, requestIndex: number | null, request?: unknown): Effect {
    const token = requestIndex === null ? undefined : this.requests[requestIndex]?.fencingToken;
    const effect: Effect = { key, digest, receipt: `rcpt-${key}-${this.effects.length + 1}`, atMs: this.clock.nowMs, requestIndex, ...(token !== undefined ? { fencingToken: token } : {}) };
    invariant(this.effects.every((e) => e.receipt !== effect.receipt), `receipt ${effect.receipt} issued twice`);
    this.effects.push(effect);
    if (this.face) {
      this.requestOf.set(effect.receipt, request);
      this.memory.set(key, { digest, receipt: effect.receipt, state: 'committed', atMs: this.clock.nowMs, request });
    } else this.memory.set(key, { digest, receipt: effect.receipt, state: 'committed' });
    this.onEvent({ kind: 'commit', effect });
    return effect;
  }

  private receiptBody(key: string, stored: Stored): Record<string, unknown> {
    return { key, digest: stored.digest, state: stored.state, receipt: stored.receipt };
  }

  /** Applies the body and delivery faults to an answer. */
  private reply(status: number, value: Record<string, unknown>, fault: ResponseFault | undefined): ServiceReply {
    const kind = fault?.fault;
    let body = value;
    if (status === 200 || status === 201) {
      if (kind === 'wrong-key') body = { ...value, key: `not-${String(value.key)}` };
      if (kind === 'wrong-digest') body = { ...value, digest: '0'.repeat(64) };
      if (kind === 'empty-receipt') body = { ...value, receipt: '' };
      if (kind === 'pending-state') body = { ...value, state: 'pending' };
    }
    if (kind === '500-after-commit') return this.rawReply(500, JSON.stringify({ error: 'internal' }), fault);
    return this.rawReply(status, JSON.stringify(body), fault);
  }

  rawReply(status: number, body: string, fault: ResponseFault | undefined): ServiceReply {
    const kind = fault?.fault;
    let text = body;
    if (kind === 'malformed-body') text = body.slice(0, Math.max(1, Math.floor(body.length / 2)));
    if (kind === 'null-body') text = 'null';
    return {
      status,
      body: text,
      cut: kind === 'cut-body',
      deliver: kind === 'drop-after-commit' ? 'drop' : kind === 'reset-after-commit' ? 'reset' : 'respond',
      delayMs: kind === 'delay' ? (fault?.delayMs ?? 1000) : 0,
    };
  }
}

/** What a request carries besides its body: a fencing token, and a credential. */
export interface RequestCredentials {
  fencingToken?: number;
  /** The authorization header as sent. */
  authorization?: string;
}

/** The credentials a request carries: x-fencing-token as a whole number (anything else is no token), and the authorization header. */
export function credentialsOf(headers: Headers): RequestCredentials {
  const text = headers.get('x-fencing-token');
  const authorization = headers.get('authorization');
  return { ...(text !== null && /^\d+$/.test(text.trim()) ? { fencingToken: Number(text) } : {}), ...(authorization !== null ? { authorization } : {}) };
}

/** The headers that carry these credentials again (for msw, or a real request). */
export function credentialHeaders(credentials: RequestCredentials): Record<string, string> {
  return { ...(credentials.fencingToken !== undefined ? { 'x-fencing-token': String(credentials.fencingToken) } : {}), ...(credentials.authorization !== undefined ? { authorization: credentials.authorization } : {}) };
}

/** The trace line of a service event: a commit, or a restart and what it forgot. */
export function describeServiceEvent(event: ServiceEvent, memory: ScenarioService['idempotencyMemory']): { op: string; detail: string } {
  if (event.kind === 'commit') {
    const { effect } = event;
    return { op: 'commit', detail: `${effect.key} digest ${effect.digest.slice(0, 12)} receipt ${effect.receipt}${effect.requestIndex === null ? ' (before the run)' : ''}` };
  }
  if (memory === 'volatile') return { op: 'restart', detail: event.forgotKeys > 0 ? `forgot ${event.forgotKeys} idempotency key(s)` : 'nothing to forget yet' };
  if (memory === 'none') return { op: 'restart', detail: 'no idempotency keys to keep or lose' };
  return { op: 'restart', detail: 'idempotency memory kept (durable)' };
}

/** Maps a method and path onto the service's routes (the direct transport; msw matches the same paths). */
export function routeOf(method: string, pathname: string): ServiceRoute {
  const match = /^\/(operations|resources)\/([^/]+)$/.exec(pathname);
  if (!match) return { kind: 'unknown' };
  const id = decodeURIComponent(match[2] as string);
  if (match[1] === 'operations') {
    if (method === 'POST') return { kind: 'publish', key: id };
    if (method === 'GET') return { kind: 'query', key: id };
    return { kind: 'unknown' };
  }
  return method === 'GET' ? { kind: 'resource', name: id } : { kind: 'unknown' };
}
