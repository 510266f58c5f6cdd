/**
 * A request's route under a contract (contract/classify.ts), in the service's terms; durasim's own
 * lookup route (GET <url>/resources/:name) stays open under every contract, for tasks with lookups.
 */
import type { ServiceContract } from '../contract/contract.js';
import { classify, matchPath, pathBelow } from '../contract/classify.js';
import type { ServiceRoute } from './serviceTypes.js';

export function contractRoute(contract: ServiceContract, method: string, url: string, headers: Headers, body: string): ServiceRoute {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'unknown' };
  }
  const found = classify(contract, method, parsed, headers, body);
  switch (found.kind) {
    case 'publish':
      return { kind: 'publish', key: found.key, intent: found.intent, request: found.request };
    case 'missing-key':
      return { kind: 'missing-key', route: found.route };
    case 'query': {
      const list = found.list === undefined ? {} : { list: found.list };
      if (found.by === 'key') return { kind: 'query', key: found.key, ...list };
      if (found.by === 'receipt') return { kind: 'query', key: '', by: 'receipt', receipt: found.receipt, ...list };
      return { kind: 'query', key: '', by: 'filter', filter: { field: found.field, value: found.value }, ...list };
    }
    case 'out-of-scope':
      return { kind: 'out-of-scope' };
    case 'unknown': {
      const path = pathBelow(contract, parsed);
      const resource = method === 'GET' && path !== undefined ? matchPath('/resources/:name', path) : undefined;
      return resource?.name !== undefined ? { kind: 'resource', name: resource.name } : { kind: 'unknown' };
    }
  }
}

/**
 * The key a request under a contract names outside its path (in a header, in the body), read at once
 * where that needs no stream read (a string body, or none): a step's trace line names it, so that a
 * fault anchored to a key's mentions finds its request — the simulated fetch's and, in confirm's
 * real processes, the real one's alike. `url` is in the contract's terms (below its `url`).
 */
export function keyOutsidePath(contract: ServiceContract, url: string, init: { method?: string; headers?: HeadersInit; body?: unknown } | undefined): string | undefined {
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== 'string') return undefined;
  const route = contractRoute(contract, (init?.method ?? 'GET').toUpperCase(), url, new Headers(init?.headers), body ?? '');
  if (route.kind !== 'publish' && !(route.kind === 'query' && route.by === undefined)) return undefined;
  return new URL(url).pathname.split('/').map((part) => decodeURIComponent(part)).includes(route.key) ? undefined : route.key;
}
