/**
 * What the service offers a journal, as the judge must read it under a contract (the user's own
 * API), read off the scenario's contract — one place, for the simulated and the real run alike:
 * - `keyQuery`: whether a journal in doubt about a send (one whose answer never came, so it holds
 *   no receipt) can ask about the key — a query by the key itself, or a list filtered by a field of
 *   the request it sent; one by the receipt alone cannot;
 * - `keyTtlMs`: how long the service keeps a key, when it forgets one after a time-to-live;
 * - the key memory: the contract's when it says its service forgets keys on restart or keeps none.
 * Without a contract (durasim's own protocol, GET /operations/:key) the scenario's service says it all.
 */
import type { JudgeInput } from './evidence.js';

export function withServiceFacts(input: JudgeInput): JudgeInput {
  const contract = input.scenario.service.contract;
  if (contract === undefined) return input;
  const keyQuery = input.scenario.service.query && contract.queries.some((q) => q.by === 'key' || q.by === 'filter');
  const memory = contract.memory === 'volatile' || contract.memory === 'none' ? contract.memory : input.scenario.service.idempotencyMemory;
  return {
    ...input,
    keyQuery,
    ...(typeof contract.memory === 'object' ? { keyTtlMs: contract.memory.ttlMs } : {}),
    scenario: { ...input.scenario, service: { ...input.scenario.service, idempotencyMemory: memory } },
  };
}
