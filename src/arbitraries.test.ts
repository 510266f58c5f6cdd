import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { presetContract } from '../simulator/contract/presets.js';
import { baseScenario, scenarioArbitrary } from './arbitraries.js';

describe('what check draws of the service', () => {
  test('a service without a query by key is drawn where durasim stands for the service, never under a contract (its routes answer as it declares)', () => {
    const contract = presetContract('payments')!;
    const plain = fc.sample(scenarioArbitrary(), { numRuns: 300, seed: 7 });
    expect(plain.some((s) => !s.service.query)).toBe(true);
    for (const options of [{ contract }, { task: { ...baseScenario([{ kind: 'publish', key: 'po_1', body: '{"amount":1}' }]), service: { ...baseScenario([]).service, contract } } }]) {
      const drawn = fc.sample(scenarioArbitrary(options), { numRuns: 300, seed: 7 });
      expect(drawn.filter((s) => !s.service.query)).toEqual([]);
    }
  });

  test("a contract's promise of its keys (durable, a time-to-live) binds the drawn memory: a restart keeps them; a task file's contract binds as the config's does", () => {
    const payments = presetContract('payments')!;
    const task = (contract: typeof payments) => ({ task: { ...baseScenario([{ kind: 'publish', key: 'po_1', body: '{"amount":1}' }]), service: { ...baseScenario([]).service, contract } } });
    const memories = (options: Parameters<typeof scenarioArbitrary>[0]) => new Set(fc.sample(scenarioArbitrary(options), { numRuns: 300, seed: 11 }).map((s) => s.service.idempotencyMemory));
    // durasim's own protocol promises nothing: every memory is drawn.
    expect(memories({})).toEqual(new Set(['durable', 'volatile', 'none']));
    for (const contract of [payments, { ...payments, memory: 'durable' as const }]) {
      expect(memories({ contract })).toEqual(new Set(['durable']));
      expect(memories(task(contract))).toEqual(new Set(['durable']));
    }
    // A contract that says its service forgets keys at a restart is that itself, whatever is drawn (keyMemoryOf); the draw is as before.
    expect(memories({ contract: { ...payments, memory: 'volatile' } })).toEqual(new Set(['durable', 'volatile']));
  });

  test("a contract's promise changes no other draw of a seed: the memory draw takes one value of four either way", () => {
    const payments = presetContract('payments')!;
    const drawn = (memory: 'durable' | 'volatile') => fc.sample(scenarioArbitrary({ contract: { ...payments, memory } }), { numRuns: 200, seed: 5 });
    const promised = drawn('durable');
    const forgetting = drawn('volatile');
    expect(promised.map((s) => JSON.stringify({ ...s, service: { ...s.service, idempotencyMemory: 'x', contract: 'x' } }))).toEqual(forgetting.map((s) => JSON.stringify({ ...s, service: { ...s.service, idempotencyMemory: 'x', contract: 'x' } })));
    // ... and the draws did differ where the memory was drawn.
    expect(promised.filter((s, i) => s.service.idempotencyMemory !== forgetting[i]!.service.idempotencyMemory).length).toBeGreaterThan(0);
  });
});
