/**
 * A contract from untrusted JSON (durasim.config.json's "service", a scenario's service.contract,
 * checkJournal's `service`): a preset (default ietf) with the project's own values over it, every
 * value checked, every problem said at its field (`fail` words it for the caller: the config's or
 * the scenario's). The result is complete: a scenario keeps the whole contract, so it replays the
 * same forever whatever the presets become.
 */
import type { Answer, EffectRoute, IntentRule, KeyPlace, QueryRoute, ServiceContract } from './contract.js';
import { pointerTokens } from './jsonPointer.js';
import { PRESETS, presetContract, type PresetName } from './presets.js';
import { TEMPLATE_NAMES } from './template.js';

export type Fail = (field: string, problem: string, fix?: string) => never;

const KEYS = ['preset', 'url', 'effects', 'queries', 'created', 'replay', 'mismatch', 'inFlight', 'missingKey', 'notFound', 'invalid', 'revoked', 'unavailable', 'internal', 'states', 'memory', 'outOfScope'] as const;
const ANSWERS = ['created', 'replay', 'mismatch', 'inFlight', 'missingKey', 'notFound', 'invalid', 'revoked', 'unavailable', 'internal'] as const;
const METHOD = /^[A-Z]+$/;
const HEADER = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A character no header value carries: a control character but the tab, or one past U+00FF. */
const HEADER_VALUE_UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/;
const MAX_ROUTES = 64;
const MAX_TEMPLATE_CHARS = 65_536;
/** The longest route path pattern a contract may name (schema/*.schema.json say it too). */
export const ROUTE_PATH_CHARS = 512;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** The contract the JSON says, or undefined for durasim's own protocol ({ "preset": "durasim" }). */
export function parseContract(value: unknown, at: string, fail: Fail): ServiceContract | undefined {
  if (!isRecord(value)) fail(at, `must be an object, found ${shown(value)}`, 'Write e.g. { "preset": "ietf", "url": "https://api.example.com", "effects": [{ "method": "POST", "path": "/payouts", "key": { "header": "Idempotency-Key" }, "intent": "canonical-json" }] }.');
  for (const key of Object.keys(value)) if (!(KEYS as readonly string[]).includes(key)) fail(`${at}.${key}`, 'is not a field of a service contract', `Use any of ${KEYS.join(', ')} (docs/service-contract.md).`);
  const presetName = value.preset === undefined ? 'ietf' : value.preset;
  if (typeof presetName !== 'string' || !(PRESETS as readonly string[]).includes(presetName)) fail(`${at}.preset`, `is ${shown(presetName)}, not a preset`, `Use one of ${PRESETS.join(', ')}.`);
  const base = presetContract(presetName as PresetName);
  if (base === undefined) {
    const more = Object.keys(value).find((k) => k !== 'preset');
    if (more !== undefined) fail(`${at}.${more}`, 'cannot be set on the durasim preset (durasim\'s own protocol, POST /operations/:key)', 'Name another preset (ietf, payments, client-token) to script your own API.');
    return undefined;
  }
  const contract: ServiceContract = { ...base, preset: presetName };
  if (value.url !== undefined) contract.url = url(value.url, `${at}.url`, fail);
  if (value.effects !== undefined) contract.effects = list(value.effects, `${at}.effects`, fail, 1).map((e, i) => effect(e, `${at}.effects[${i}]`, fail));
  if (value.queries !== undefined) contract.queries = list(value.queries, `${at}.queries`, fail, 0).map((q, i) => query(q, `${at}.queries[${i}]`, fail));
  for (const name of ANSWERS) {
    const given = value[name];
    if (given === undefined) continue;
    if (name === 'inFlight' && given === null) contract.inFlight = null;
    else if (name === 'created') contract.created = { ...answer(given, `${at}.created`, fail, ['receipt']), receipt: pointer((given as Record<string, unknown>).receipt ?? contract.created.receipt, `${at}.created.receipt`, fail) };
    else if (name === 'unavailable') contract.unavailable = { ...answer(given, `${at}.unavailable`, fail, ['retryAfter']), retryAfter: retryAfter((given as Record<string, unknown>).retryAfter ?? contract.unavailable.retryAfter, `${at}.unavailable.retryAfter`, fail) };
    else contract[name] = answer(given, `${at}.${name}`, fail, []);
  }
  if (value.states !== undefined) {
    const states = value.states;
    if (!isRecord(states) || typeof states.committed !== 'string' || typeof states.pending !== 'string' || Object.keys(states).length !== 2) fail(`${at}.states`, `must be { "committed": <text>, "pending": <text> }, found ${shown(states)}`, 'Write the words {{state}} takes, e.g. { "committed": "paid", "pending": "processing" }.');
    contract.states = { committed: states.committed, pending: states.pending };
  }
  if (value.memory !== undefined) contract.memory = memory(value.memory, `${at}.memory`, fail);
  if (value.outOfScope !== undefined) {
    contract.outOfScope = list(value.outOfScope, `${at}.outOfScope`, fail, 0).map((r, i) => {
      if (typeof r !== 'string' || !/^[A-Z]+ \/\S*$/.test(r)) fail(`${at}.outOfScope[${i}]`, `must be "METHOD /path", found ${shown(r)}`, 'Write e.g. "GET /health".');
      return r;
    });
  }
  // The receipt must sit where the created answer's body has {{receipt}}: the judge reads it there.
  const receiptAt = pathTo(contract.created.body, contract.created.receipt);
  if (receiptAt !== '{{receipt}}') fail(`${at}.created.receipt`, `is ${shown(contract.created.receipt)}, but the created body holds ${receiptAt === undefined ? 'nothing' : shown(receiptAt)} there`, 'Point it at the field whose value is "{{receipt}}".');
  const after = contract.unavailable.retryAfter;
  if (typeof after === 'object' && pathTo(contract.unavailable.body, after.body) !== '{{retryAfterMs}}') fail(`${at}.unavailable.retryAfter.body`, `is ${shown(after.body)}, but the unavailable body holds ${shown(pathTo(contract.unavailable.body, after.body))} there`, 'Put "{{retryAfterMs}}" at that place of its body.');
  for (const [i, e] of contract.effects.entries()) {
    if ('path' in e.key && !params(e.path).includes(e.key.path)) fail(`${at}.effects[${i}].key.path`, `names ${shown(e.key.path)}, which is no parameter of ${shown(e.path)}`, `Use one of its :parameters, or put the key elsewhere.`);
  }
  return contract;
}

function list(value: unknown, field: string, fail: Fail, least: number): unknown[] {
  if (!Array.isArray(value) || value.length < least || value.length > MAX_ROUTES) fail(field, `must be a list of ${least}${least > 0 ? ' or more' : ''} to ${MAX_ROUTES} entries, found ${shown(value)}`);
  return value;
}

function url(value: unknown, field: string, fail: Fail): string {
  let parsed: URL | undefined;
  try {
    parsed = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') {
    fail(field, `must be an http or https URL with no query, found ${shown(value)}`, 'Write the base URL your worker calls, e.g. "https://api.example.com".');
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** The :parameters of a path pattern. */
export function params(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
}

function routePath(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'string' || !value.startsWith('/') || /[?#\s]/.test(value) || value.length > ROUTE_PATH_CHARS) fail(field, `must be a path pattern like "/v1/payouts/:id", found ${shown(value)}`);
  const names = params(value);
  if (new Set(names).size !== names.length) fail(field, `names a parameter twice: ${shown(value)}`);
  return value;
}

function method(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'string' || !METHOD.test(value)) fail(field, `must be an HTTP method in capitals, found ${shown(value)}`, 'Write e.g. "POST".');
  return value;
}

function pointer(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'string' || pointerTokens(value) === undefined) fail(field, `must be a JSON pointer ("" or starting with "/"), found ${shown(value)}`, 'Write e.g. "/metadata/id".');
  return value;
}

function strict(value: Record<string, unknown>, field: string, allowed: readonly string[], fail: Fail): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(`${field}.${key}`, 'is not a field here', `Use ${allowed.join(', ')}.`);
}

function keyPlace(value: unknown, field: string, fail: Fail): KeyPlace {
  const fix = 'Write one of { "header": "Idempotency-Key" }, { "path": "<parameter>" }, { "query": "<name>" }, { "body": "/<pointer>" }.';
  if (!isRecord(value) || Object.keys(value).length !== 1) fail(field, `must name one place, found ${shown(value)}`, fix);
  const [place, where] = Object.entries(value)[0] as [string, unknown];
  if (place === 'header') {
    if (typeof where !== 'string' || !HEADER.test(where)) fail(`${field}.header`, `must be a header name, found ${shown(where)}`);
    return { header: where };
  }
  if (place === 'path' || place === 'query') {
    if (typeof where !== 'string' || where === '') fail(`${field}.${place}`, `must be a name, found ${shown(where)}`);
    return place === 'path' ? { path: where } : { query: where };
  }
  if (place === 'body') return { body: pointer(where, `${field}.body`, fail) };
  return fail(field, `names ${shown(place)}, which is no place a key travels`, fix);
}

function intent(value: unknown, field: string, fail: Fail): IntentRule {
  if (value === 'raw' || value === 'canonical-json') return value;
  if (isRecord(value) && Array.isArray(value.pointers) && value.pointers.length > 0 && Object.keys(value).length === 1) return { pointers: value.pointers.map((p, i) => pointer(p, `${field}.pointers[${i}]`, fail)) };
  return fail(field, `must be "raw", "canonical-json" or { "pointers": ["/amount", ...] }, found ${shown(value)}`);
}

function effect(value: unknown, field: string, fail: Fail): EffectRoute {
  if (!isRecord(value)) fail(field, `must be an object, found ${shown(value)}`);
  strict(value, field, ['method', 'path', 'key', 'intent'], fail);
  return { method: method(value.method, `${field}.method`, fail), path: routePath(value.path, `${field}.path`, fail), key: keyPlace(value.key, `${field}.key`, fail), intent: value.intent === undefined ? 'canonical-json' : intent(value.intent, `${field}.intent`, fail) };
}

function query(value: unknown, field: string, fail: Fail): QueryRoute {
  if (!isRecord(value)) fail(field, `must be an object, found ${shown(value)}`);
  strict(value, field, ['method', 'path', 'by', 'key', 'receipt', 'filter', 'list'], fail);
  const base = { method: value.method === undefined ? 'GET' : method(value.method, `${field}.method`, fail), path: routePath(value.path, `${field}.path`, fail), ...(value.list !== undefined ? { list: pointer(value.list, `${field}.list`, fail) } : {}) };
  const place = (v: unknown, f: string): { path: string } | { query: string } => {
    if (isRecord(v) && Object.keys(v).length === 1 && typeof v.path === 'string' && params(base.path).includes(v.path)) return { path: v.path };
    if (isRecord(v) && Object.keys(v).length === 1 && typeof v.query === 'string' && v.query !== '') return { query: v.query };
    return fail(f, `must be { "path": "<a parameter of ${base.path}>" } or { "query": "<name>" }, found ${shown(v)}`);
  };
  if (value.by === 'key') return { ...base, by: 'key', key: place(value.key, `${field}.key`) };
  if (value.by === 'receipt') return { ...base, by: 'receipt', receipt: place(value.receipt, `${field}.receipt`) };
  if (value.by === 'filter') {
    const filter = value.filter;
    if (!isRecord(filter) || typeof filter.query !== 'string' || filter.query === '' || Object.keys(filter).length !== 2) fail(`${field}.filter`, `must be { "query": "<parameter>", "field": "/<pointer into the request body>" }, found ${shown(filter)}`);
    return { ...base, by: 'filter', filter: { query: filter.query, field: pointer(filter.field, `${field}.filter.field`, fail) } };
  }
  return fail(`${field}.by`, `must be "key", "receipt" or "filter", found ${shown(value.by)}`);
}

function answer(value: unknown, field: string, fail: Fail, more: readonly string[]): Answer {
  if (!isRecord(value)) fail(field, `must be an object with a status, found ${shown(value)}`, 'Write e.g. { "status": 422, "body": { "error": "mismatch" } }.');
  strict(value, field, ['status', 'headers', 'body', ...more], fail);
  const status = value.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) fail(`${field}.status`, `must be an HTTP status from 200 to 599, found ${shown(status)}`);
  const out: Answer = { status };
  if (value.headers !== undefined) {
    if (!isRecord(value.headers) || Object.entries(value.headers).some(([name, v]) => !HEADER.test(name) || typeof v !== 'string' || /[\r\n]/.test(v))) fail(`${field}.headers`, `must map header names to texts, found ${shown(value.headers)}`);
    // What a header can carry (RFC 9110's field value; what node:http and fetch's Headers take): a fetch would throw on the rest.
    const unsent = Object.entries(value.headers as Record<string, string>).find(([, v]) => HEADER_VALUE_UNSENDABLE.test(v));
    if (unsent !== undefined) fail(`${field}.headers`, `has ${shown(unsent[0])}: ${shown(unsent[1])}, which a header cannot carry (a control character, or one past U+00FF)`, 'Write it in printable ASCII, e.g. "paid (ok)".');
    out.headers = { ...(value.headers as Record<string, string>) };
  }
  if (value.body !== undefined) {
    const text = JSON.stringify(value.body);
    if (text.length > MAX_TEMPLATE_CHARS) fail(`${field}.body`, `is ${text.length} characters of JSON, over the limit of ${MAX_TEMPLATE_CHARS}`);
    for (const name of text.matchAll(/\{\{([^}]*)\}\}/g)) {
      const placeholder = name[1] as string;
      const known = (TEMPLATE_NAMES as readonly string[]).includes(placeholder) || (placeholder.startsWith('request:') && pointerTokens(placeholder.slice('request:'.length)) !== undefined);
      if (!known) fail(`${field}.body`, `has a placeholder {{${placeholder}}} durasim does not know`, `Use {{${TEMPLATE_NAMES.join('}}, {{')}}} or {{request:/<pointer>}}.`);
    }
    out.body = JSON.parse(text) as unknown;
  }
  return out;
}

function retryAfter(value: unknown, field: string, fail: Fail): ServiceContract['unavailable']['retryAfter'] {
  if (value === 'seconds' || value === 'http-date') return value;
  if (isRecord(value) && Object.keys(value).length === 1 && typeof value.body === 'string') return { body: pointer(value.body, `${field}.body`, fail) };
  return fail(field, `must be "seconds", "http-date" (a Retry-After header) or { "body": "/<pointer>" } (milliseconds in the body), found ${shown(value)}`);
}

function memory(value: unknown, field: string, fail: Fail): ServiceContract['memory'] {
  if (value === 'durable' || value === 'volatile' || value === 'none') return value;
  if (isRecord(value) && Object.keys(value).length === 1 && Number.isSafeInteger(value.ttlMs) && (value.ttlMs as number) >= 1) return { ttlMs: value.ttlMs as number };
  return fail(field, `must be "durable", "volatile", "none" or { "ttlMs": <virtual ms a key is kept> }, found ${shown(value)}`);
}

/** The value of a template at a pointer (the template itself, not rendered). */
function pathTo(template: unknown, at: string): unknown {
  let value: unknown = template;
  for (const token of pointerTokens(at) ?? []) {
    if (!isRecord(value) || !Object.hasOwn(value, token)) return undefined;
    value = value[token];
  }
  return value;
}
