/**
 * A service contract: the user's own HTTP API, as the fake service speaks it (issue 54). The
 * service's model stays one (service/service.ts: one effect per key, replays, conflicts, its
 * faults); a contract only says how requests reach it and how its answers look on the wire.
 *
 * The contract's rules:
 * - The service answers at `url` (scheme, host, port; a path prefix allowed). A request to any other
 *   host never reaches it; one to a route the contract does not name is answered `unrouted` (404)
 *   and counted (routed-requests), unless `outOfScope` names it (answered 204, not counted).
 * - An effect route (`effects`, method and path pattern with `:name` parameters) commits one effect
 *   per idempotency key. The key travels in a header, a path parameter, a query parameter or a JSON
 *   pointer into the body (`key`); a request without one is answered `missingKey` and commits
 *   nothing. Two requests are the same intent when what `intent` names is equal: the raw body, the
 *   body as canonical JSON (keys sorted, no whitespace), or the values at listed JSON pointers; the
 *   service's digest of an intent is the SHA-256 of that text.
 * - Answers: `created` for a first request (its body a template, the generated receipt at the
 *   pointer `receipt`), `replay` for the same key and intent again (the same body, its own status
 *   and headers, e.g. a replay flag), `mismatch` for the same key with another intent, `inFlight`
 *   while the first request with that key is still being processed (its answer not yet sent), and
 *   the failure classes: `invalid` (final: the plan needs fixing), `revoked` (pause the task) and
 *   `unavailable` (retry after the wait it asks for: `Retry-After` in seconds or as an HTTP date, or
 *   in the body). A status a contract leaves out is the default's.
 * - Queries (`queries`): by key in the path or a query parameter, by the receipt the created answer
 *   returned, or a list filtered by a field the request carried (`filter`: query parameter →
 *   pointer into the effect's request body), answered as the created body or a list of them
 *   (`list`: the pointer the array sits at). None: a journal can only re-send to learn an outcome.
 * - Key memory (`memory`): durable (forever), volatile (a service restart forgets every key), none
 *   (no idempotency at all), or `{ "ttlMs": n }`: a key is forgotten n virtual ms after the effect
 *   it names was committed, and a later request with it commits a second effect.
 * - Templates are JSON; a string that is exactly `{{name}}` becomes that value (keeping its JSON
 *   type), and `{{name}}` inside a longer string is replaced by its text: `receipt`, `key`,
 *   `digest`, `state` (the contract's word for committed or pending), `retryAfterSeconds`,
 *   `retryAfterMs`, and `request:<pointer>` (the value the request's JSON body holds there).
 */

/** Where the idempotency key travels. */
export type KeyPlace = { header: string } | { path: string } | { query: string } | { body: string };

/** What makes two requests the same intent. */
export type IntentRule = 'raw' | 'canonical-json' | { pointers: string[] };

export interface Answer {
  status: number;
  /** Extra response headers (content-type is application/json unless given). */
  headers?: Record<string, string>;
  /** A JSON template; absent: an empty body. */
  body?: unknown;
}

export interface EffectRoute {
  method: string;
  /** A path pattern below the contract's url, e.g. /payouts or /v1/orders/:id. */
  path: string;
  key: KeyPlace;
  intent: IntentRule;
}

export type QueryRoute = {
  method: string;
  path: string;
  /** The answer is the created body, or a list of them at this pointer (`""` for a bare array). */
  list?: string;
} & ({ by: 'key'; key: { path: string } | { query: string } } | { by: 'receipt'; receipt: { path: string } | { query: string } } | { by: 'filter'; filter: { query: string; field: string } });

export interface ServiceContract {
  /** The base URL the worker calls (default http://service.durasim). */
  url: string;
  effects: EffectRoute[];
  queries: QueryRoute[];
  /** The created answer; `receipt` is where its body carries the receipt. */
  created: Answer & { receipt: string };
  replay: Answer;
  mismatch: Answer;
  /** null: no in-progress answer (a request with the key of one still being processed is served as a replay). */
  inFlight: Answer | null;
  missingKey: Answer;
  notFound: Answer;
  invalid: Answer;
  revoked: Answer;
  unavailable: Answer & { retryAfter: 'seconds' | 'http-date' | { body: string } };
  internal: Answer;
  /** The words `{{state}}` takes. */
  states: { committed: string; pending: string };
  memory: 'durable' | 'volatile' | 'none' | { ttlMs: number };
  /** Routes outside the contract that are no finding ("GET /health"): answered 204. */
  outOfScope: string[];
  /** The preset it was made from, if any (for people; the rest of the object is what counts). */
  preset?: string;
}

/** The contract's answer kinds, as the service core decides them. */
export type AnswerKind = 'created' | 'replay' | 'mismatch' | 'inFlight' | 'missingKey' | 'notFound' | 'invalid' | 'revoked' | 'unavailable' | 'internal';
