/**
 * Which of the contract's routes a request takes, and what it carries: an effect route's key and
 * intent, a query's key, receipt or filter. What no route names is `unknown` (a finding) or
 * `out-of-scope` (the contract says it is none of the test's business).
 */
import { createHash } from 'node:crypto';
import type { EffectRoute, QueryRoute, ServiceContract } from './contract.js';
import { canonicalJson, getAt, parseJsonBody } from './jsonPointer.js';

export type ContractRequest =
  /** intent: the text whose SHA-256 is the intent's digest; request: the body as JSON, when it is. */
  | { kind: 'publish'; key: string; intent: string; request: unknown }
  | { kind: 'missing-key'; route: string }
  | { kind: 'query'; by: 'key'; key: string; list: string | undefined }
  | { kind: 'query'; by: 'receipt'; receipt: string; list: string | undefined }
  | { kind: 'query'; by: 'filter'; field: string; value: string; list: string | undefined }
  | { kind: 'out-of-scope' }
  | { kind: 'unknown' };

/** The parameters a path pattern takes from a path (decoded), or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = got[i] as string;
    if (part.startsWith(':')) {
      if (value === '') return undefined;
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return undefined;
      }
    } else if (part !== value) return undefined;
  }
  return params;
}

/** The path below the contract's url, or undefined for a request elsewhere. */
export function pathBelow(contract: ServiceContract, url: URL): string | undefined {
  const base = new URL(contract.url);
  if (url.origin !== base.origin) return undefined;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (prefix === '') return url.pathname;
  if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return undefined;
  return url.pathname.slice(prefix.length) || '/';
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The digest of an intent's text, as the service and the judge compute it. */
export function intentDigest(intent: string): string {
  return sha256(intent);
}

/** The text an effect route's intent rule makes of a body. */
export function intentOf(route: Pick<EffectRoute, 'intent'>, body: string): string {
  if (route.intent === 'raw') return body;
  const parsed = parseJsonBody(body);
  if (parsed === undefined) return body;
  if (route.intent === 'canonical-json') return canonicalJson(parsed.value);
  return canonicalJson(route.intent.pointers.map((p) => getAt(parsed.value, p) ?? null));
}

function keyOf(route: EffectRoute, url: URL, params: Record<string, string>, headers: Headers, body: unknown): string | undefined {
  const place = route.key;
  let value: unknown;
  if ('header' in place) value = headers.get(place.header) ?? undefined;
  else if ('path' in place) value = params[place.path];
  else if ('query' in place) value = url.searchParams.get(place.query) ?? undefined;
  else value = getAt(body, place.body);
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function queryOf(route: QueryRoute, url: URL, params: Record<string, string>): ContractRequest | undefined {
  const from = (place: { path: string } | { query: string }): string | undefined => ('path' in place ? params[place.path] : (url.searchParams.get(place.query) ?? undefined));
  if (route.by === 'key') {
    const key = from(route.key);
    return key === undefined ? undefined : { kind: 'query', by: 'key', key, list: route.list };
  }
  if (route.by === 'receipt') {
    const receipt = from(route.receipt);
    return receipt === undefined ? undefined : { kind: 'query', by: 'receipt', receipt, list: route.list };
  }
  const value = url.searchParams.get(route.filter.query);
  return value === null ? undefined : { kind: 'query', by: 'filter', field: route.filter.field, value, list: route.list };
}

export function classify(contract: ServiceContract, method: string, url: URL, headers: Headers, body: string): ContractRequest {
  const path = pathBelow(contract, url);
  if (path === undefined) return { kind: 'unknown' };
  for (const route of contract.effects) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params === undefined) continue;
    const parsed = parseJsonBody(body)?.value;
    const key = keyOf(route, url, params, headers, parsed);
    if (key === undefined) return { kind: 'missing-key', route: `${route.method} ${route.path}` };
    return { kind: 'publish', key, intent: intentOf(route, body), request: parsed };
  }
  for (const route of contract.queries) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params === undefined) continue;
    const found = queryOf(route, url, params);
    if (found) return found;
  }
  if (contract.outOfScope.some((r) => r === `${method} ${path}`)) return { kind: 'out-of-scope' };
  return { kind: 'unknown' };
}
