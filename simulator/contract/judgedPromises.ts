/**
 * What a contract promises, in the judge's terms (model/evidence.ts's JudgeInput): whether a
 * journal in doubt about a send — one whose answer it never got, so it holds no receipt — can ask
 * the service about the key (a query by the key itself, or a list filtered by a field of the
 * request it sent; one by the receipt alone cannot), and how long the service keeps a key. Without
 * a contract (durasim's own protocol, GET /operations/:key) the scenario's `query` says it all.
 */
import type { ServiceContract } from './contract.js';

export interface JudgedPromises {
  keyQuery: boolean;
  keyTtlMs?: number;
}

export function judgedPromises(service: { query: boolean; contract?: ServiceContract | undefined }): JudgedPromises {
  const contract = service.contract;
  if (contract === undefined) return { keyQuery: service.query };
  const keyQuery = service.query && contract.queries.some((q) => q.by === 'key' || q.by === 'filter');
  return { keyQuery, ...(typeof contract.memory === 'object' ? { keyTtlMs: contract.memory.ttlMs } : {}) };
}
