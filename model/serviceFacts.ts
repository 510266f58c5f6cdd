/**
 * What the service offers a journal, as the judge must read it under a contract (the user's own
 * API): a query counts only when it can find an operation the journal is in doubt about — by its
 * key, or by a field of the request (a list filtered by a metadata id) — not by a receipt the
 * journal never heard; and the key memory is the contract's when it says its service forgets keys
 * on restart or keeps none. Without a contract, the scenario's service says it all.
 */
import type { JudgeInput } from './evidence.js';

export function withServiceFacts(input: JudgeInput): JudgeInput {
  const contract = input.scenario.service.contract;
  if (contract === undefined) return input;
  const query = input.scenario.service.query && contract.queries.some((q) => q.by === 'key' || q.by === 'filter');
  const memory = contract.memory === 'volatile' || contract.memory === 'none' ? contract.memory : input.scenario.service.idempotencyMemory;
  if (query === input.scenario.service.query && memory === input.scenario.service.idempotencyMemory) return input;
  return { ...input, scenario: { ...input.scenario, service: { ...input.scenario.service, query, idempotencyMemory: memory } } };
}
