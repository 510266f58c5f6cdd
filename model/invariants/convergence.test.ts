import { describe, expect, test } from 'vitest';
import { checkConvergence } from './convergence.js';
import { finalRecords, op, run } from './fixtures.js';

describe('convergence', () => {
  test('fires when the run ran out of its bounds', () => {
    const violations = checkConvergence(run({ outcome: { kind: 'bounds-exceeded', bound: 'incarnations', detail: 'worker-0 would start incarnation 12' } }));
    expect(violations).toEqual([expect.objectContaining({ code: 'convergence', key: '', actual: 'bounds-exceeded: worker-0 would start incarnation 12' })]);
  });

  test('fires when an operation ends in doubt though the service offers query and replay', () => {
    expect(checkConvergence(run({ final: finalRecords({ a: op(['authorized', 'dispatched', 'outcome_unknown']) }) }))).toEqual([
      expect.objectContaining({ code: 'convergence', key: 'a' }),
    ]);
    expect(checkConvergence(run({ final: finalRecords({ a: op(['authorized', 'dispatched', 'reconciling']) }) }))[0]?.actual).toBe('it stopped at reconciling');
    expect(checkConvergence(run({ final: finalRecords({}) }))[0]?.actual).toBe('nothing recorded for it');
  });

  test('holds for terminal states, and for blocked where the outcome cannot be learned', () => {
    expect(checkConvergence(run({ final: finalRecords({ a: op(['authorized', 'dispatched', 'succeeded']) }) }))).toEqual([]);
    const blocked = finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'blocked']) });
    expect(checkConvergence(run({ service: { query: false }, final: blocked }))).toEqual([]);
    expect(checkConvergence(run({ service: { idempotencyMemory: 'volatile' }, final: blocked }))).toEqual([]);
    expect(checkConvergence(run({ final: blocked }))).toHaveLength(1);
  });
});
