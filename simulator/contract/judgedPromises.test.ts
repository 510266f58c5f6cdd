import { describe, expect, test } from 'vitest';
import { judgedPromises } from './judgedPromises.js';
import { parseContract } from './parseContract.js';
import type { ServiceContract } from './contract.js';

const contractOf = (json: unknown): ServiceContract => parseContract(json, 'service', (field, problem) => {
  throw new Error(`${field} ${problem}`);
}) as ServiceContract;

describe("what a contract promises, in the judge's terms", () => {
  test('the presets query by the receipt alone: no query for a send in doubt; their keys live a day', () => {
    for (const preset of ['ietf', 'payments', 'client-token']) expect(judgedPromises({ query: true, contract: contractOf({ preset }) })).toEqual({ keyQuery: false, keyTtlMs: 86_400_000 });
  });

  test('a query by the key, or a list filtered by a request field, is one; durasim\'s own protocol says it with query', () => {
    const byKey = contractOf({ preset: 'payments', queries: [{ path: '/v1/payouts', by: 'key', key: { query: 'idempotency_key' } }], memory: 'durable' });
    expect(judgedPromises({ query: true, contract: byKey })).toEqual({ keyQuery: true });
    expect(judgedPromises({ query: false, contract: byKey })).toEqual({ keyQuery: false });
    const byField = contractOf({ preset: 'ietf', queries: [{ path: '/orders', by: 'filter', filter: { query: 'ref', field: '/ref' }, list: '/items' }] });
    expect(judgedPromises({ query: true, contract: byField }).keyQuery).toBe(true);
    expect(judgedPromises({ query: true })).toEqual({ keyQuery: true });
    expect(judgedPromises({ query: false })).toEqual({ keyQuery: false });
  });
});
