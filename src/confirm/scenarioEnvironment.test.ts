import { describe, expect, test } from 'vitest';
import { withScenarioEnvironment } from './scenarioEnvironment.js';

describe("the scenario's environment in confirm's own process while the journal's inspect() instance loads and reads", () => {
  test('each variable is set while the function runs, then put back as it was or removed, also when it throws', () => {
    process.env.DURASIM_TEST_KEPT = 'host';
    delete process.env.DURASIM_TEST_ADDED;
    const seen = withScenarioEnvironment({ DURASIM_TEST_KEPT: 'scenario', DURASIM_TEST_ADDED: 'x' }, () => [process.env.DURASIM_TEST_KEPT, process.env.DURASIM_TEST_ADDED]);
    expect(seen).toEqual(['scenario', 'x']);
    expect(process.env.DURASIM_TEST_KEPT).toBe('host');
    expect('DURASIM_TEST_ADDED' in process.env).toBe(false);
    expect(() => withScenarioEnvironment({ DURASIM_TEST_ADDED: 'y' }, () => { throw new Error('load failed'); })).toThrow('load failed');
    expect('DURASIM_TEST_ADDED' in process.env).toBe(false);
    delete process.env.DURASIM_TEST_KEPT;
  });

  test('no environment: the function runs as it is', () => {
    expect(withScenarioEnvironment(undefined, () => 7)).toBe(7);
  });
});
