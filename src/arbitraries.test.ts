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
});
