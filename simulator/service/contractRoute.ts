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
