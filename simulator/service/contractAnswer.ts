/**
 * The service's answers under a contract (contract/contract.ts): the same model as durasim's own
 * protocol (service.ts) — one effect per key, replays, conflicts, fencing, the sticky refusals, its
 * faults in the same order — with what the contract adds: a key that travels elsewhere, an intent
 * digest of what the contract names, an in-progress answer while a request with the key is still
 * being processed, a key time-to-live, queries by receipt or by a field of the request, routes
 * out of scope, and a request no route takes (unrouted: a finding). The request's record keeps the
 * model's status (what the judge reads: 409 for a mismatch or an in-progress answer) and the
 * status the wire said.
 */
import { digestOf } from '../../model/contract/digest.js';
import type { AnswerKind } from '../contract/contract.js';
import type { ResponseFault } from '../scenario/scenario.js';
import type { AnswerFacts, ContractFace } from './contractFace.js';
import type { Effect, ServiceClock, ServiceReply, ServiceRequestRecord, ServiceRoute } from './serviceTypes.js';

/** What of the service core the contract's answers share (service.ts's ServiceCore is one). */
export interface ServiceCore {
  readonly effects: Effect[];
  readonly memory: Map<string, { digest: string; receipt: string; state: 'committed' | 'pending'; atMs?: number; request?: unknown }>;
  readonly requestOf: Map<string, unknown>;
  readonly processing: Map<string, number>;
  readonly invalid: Set<string>;
  readonly config: { latencyMs: number };
  readonly clock: ServiceClock;
  readonly keyMemory: 'durable' | 'volatile' | 'none';
  highestToken: number;
  revoked: boolean;
  commit(key: string, digest: string, requestIndex: number | null, request?: unknown): Effect;
  rawReply(status: number, body: string, fault: ResponseFault | undefined): ServiceReply;
  resourceValue(name: string): string | undefined;
}

/** The virtual epoch's start: a Retry-After date is said on the virtual clock (world/clock.ts starts there). */
const EPOCH_MS = Date.UTC(2026, 0, 1);

/** The route as the request's record keeps it: what it was and which key it concerns, no bodies. */
export function plainRoute(route: ServiceRoute): ServiceRoute {
  if (route.kind === 'publish') return { kind: 'publish', key: route.key };
  if (route.kind === 'query') return { kind: 'query', key: route.key, ...(route.by ? { by: route.by } : {}) };
  return route;
}

/** The key a query by receipt or by a request's field asks about: the effect's it finds, else (a filter) the value asked for. */
export function askedKey(core: ServiceCore, route: Extract<ServiceRoute, { kind: 'query' }>): string {
  if (route.by === 'receipt') return core.effects.find((e) => e.receipt === route.receipt)?.key ?? '';
  if (route.by === 'filter' && route.filter) return matching(core, route.filter)[0]?.key ?? route.filter.value;
  return route.key;
}

function matching(core: ServiceCore, filter: { field: string; value: string }): { key: string; receipt: string; digest: string }[] {
  return core.effects.filter((e) => {
    const value = fieldOf(core.requestOf.get(e.receipt), filter.field);
    return value !== undefined && String(value) === filter.value;
  });
}

function fieldOf(request: unknown, pointer: string): unknown {
  let at = request;
  for (const token of pointer.split('/').slice(1).map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'))) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, token)) return undefined;
    at = (at as Record<string, unknown>)[token];
  }
  return at;
}

export function answerUnderContract(core: ServiceCore, face: ContractFace, route: ServiceRoute, body: string, fault: ResponseFault | undefined, record: ServiceRequestRecord): ServiceReply {
  const kind = fault?.fault;
  const { contract } = face;
  /**
   * An answer of the contract: the record keeps the model's status, the wire says the contract's. A
   * 500 after the commit replaces an effect route's answer and a query's that found something, as
   * in durasim's own protocol (a not-found or missing-key answer stays).
   */
  const say = (given: AnswerKind, givenStatus: number, facts: AnswerFacts = {}, wireStatus?: number): ServiceReply => {
    const internal = kind === '500-after-commit' && given !== 'notFound' && given !== 'missingKey';
    const [answer, status] = internal ? (['internal', 500] as const) : [given, givenStatus];
    const rendered = internal ? face.render('internal', {}, kind) : face.render(answer, facts, kind, wireStatus);
    record.answer = answer;
    record.status = status;
    if (rendered.status !== status) record.wireStatus = rendered.status;
    return { ...core.rawReply(rendered.status, rendered.body, fault), headers: rendered.headers };
  };
  if (route.kind === 'publish') record.digest = digestOf(route.intent ?? body);
  if (route.kind === 'unknown') {
    record.unrouted = true;
    return say('notFound', 404, {});
  }
  if (route.kind === 'out-of-scope') {
    record.answer = 'outOfScope';
    record.status = 204;
    return { ...core.rawReply(204, '', undefined), headers: {} };
  }
  if (kind === '500-before-commit') return say('internal', 500);
  if (kind === 'unavailable') {
    const asked = face.retryAfterAsked(fault?.retryAfterMs ?? 1000, core.clock.epochMs ?? EPOCH_MS + core.clock.nowMs);
    record.retryAfterMs = asked.ms;
    return say('unavailable', 503, { retryAfterMs: asked.ms, retryAfterDate: asked.date });
  }
  if (route.kind === 'missing-key') return say('missingKey', 400);
  if (route.kind === 'resource') {
    const value = core.resourceValue(route.name);
    if (value !== undefined && kind === '500-after-commit') return say('internal', 500);
    record.answer = value === undefined ? 'notFound' : 'resource';
    record.status = value === undefined ? 404 : 200;
    return { ...core.rawReply(record.status, JSON.stringify(value === undefined ? { error: 'not_found' } : { resource: route.name, value }), fault), headers: {} };
  }
  const now = core.clock.nowMs;
  const memory = core.keyMemory;
  const ttl = typeof contract.memory === 'object' ? contract.memory.ttlMs : undefined;
  /** The key's stored entry, forgotten first when its time-to-live has run out. */
  const stored = (key: string): ReturnType<ServiceCore['memory']['get']> => {
    const entry = memory === 'none' ? undefined : core.memory.get(key);
    if (entry && ttl !== undefined && entry.state === 'committed' && entry.atMs !== undefined && now - entry.atMs >= ttl) {
      core.memory.delete(key);
      record.expiredKey = true;
      return undefined;
    }
    return entry;
  };
  if (route.kind === 'query') {
    if (route.by === 'filter' && route.filter) {
      const found = matching(core, route.filter).map((e) => ({ key: e.key, digest: e.digest, receipt: e.receipt, state: 'committed' as const, request: core.requestOf.get(e.receipt) }));
      record.readsEffects = { found: found.length, digests: found.map((e) => e.digest) };
      if (kind === '500-after-commit' && found.length > 0) return say('internal', 500);
      record.answer = 'list';
      record.status = 200;
      const rendered = face.renderList(route.list ?? '', found, kind);
      return { ...core.rawReply(200, rendered.body, fault), headers: rendered.headers };
    }
    const effect = route.by === 'receipt' ? core.effects.find((e) => e.receipt === route.receipt) : undefined;
    if (route.by === 'receipt') record.readsEffects = { found: effect ? 1 : 0, digests: effect ? [effect.digest] : [] };
    const entry = route.by === 'receipt' ? (effect ? { digest: effect.digest, receipt: effect.receipt, state: 'committed' as const, request: core.requestOf.get(effect.receipt) } : undefined) : stored(route.key);
    if (!entry || entry.state !== 'committed') {
      if (route.list !== undefined) {
        record.answer = 'list';
        record.status = 200;
        const rendered = face.renderList(route.list, [], kind);
        return { ...core.rawReply(200, rendered.body, fault), headers: rendered.headers };
      }
      return say('notFound', 404);
    }
    const facts: AnswerFacts = { key: route.key, digest: entry.digest, receipt: entry.receipt, state: 'committed', request: entry.request };
    if (route.list !== undefined) {
      if (kind === '500-after-commit') return say('internal', 500);
      record.answer = 'list';
      record.status = 200;
      const rendered = face.renderList(route.list, [facts], kind);
      return { ...core.rawReply(200, rendered.body, fault), headers: rendered.headers };
    }
    return say('created', 200, facts, 200);
  }
  // An effect route's request with its key.
  const key = route.key;
  const digest = record.digest as string;
  if (record.fencingToken !== undefined) {
    if (record.fencingToken < core.highestToken) {
      record.fenced = true;
      record.status = 412;
      return { ...core.rawReply(412, JSON.stringify({ error: 'stale_fencing_token', highest: core.highestToken }), fault), headers: {} };
    }
    core.highestToken = record.fencingToken;
  }
  if (kind === 'permission-revoked') core.revoked = true;
  if (core.revoked) return say('revoked', 403);
  if (kind === 'invalid-argument') core.invalid.add(`${key}\n${digest}`);
  if (core.invalid.has(`${key}\n${digest}`)) return say('invalid', 400);
  const processing = contract.inFlight !== null && (core.processing.get(key) ?? Number.NEGATIVE_INFINITY) > now;
  const entry = stored(key);
  if (entry && entry.digest !== digest) return say('mismatch', 409, { key, digest });
  if (processing || entry?.state === 'pending') {
    if (contract.inFlight !== null) return say('inFlight', 409, { key, digest });
    return say('created', 202, { key, digest, state: 'pending', request: route.request }, 202);
  }
  const answerMs = core.config.latencyMs + (kind === 'delay' ? (fault?.delayMs ?? 1000) : 0);
  if (entry) {
    core.processing.set(key, now + answerMs);
    return say('replay', 200, { key, digest, receipt: entry.receipt, state: 'committed', request: entry.request });
  }
  if (kind === 'accept-later') {
    core.memory.set(key, { digest, receipt: '', state: 'pending', atMs: now, request: route.request });
    core.clock.at(fault?.commitDelayMs ?? 50, `service commits ${key}`, () => core.commit(key, digest, record.index, route.request));
    return say('created', 202, { key, digest, state: 'pending', request: route.request }, 202);
  }
  const effect = core.commit(key, digest, record.index, route.request);
  record.committed = true;
  core.processing.set(key, now + answerMs);
  return say('created', 201, { key, digest, receipt: effect.receipt, state: 'committed', request: route.request });
}
