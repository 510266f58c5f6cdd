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

  test('a plan whose input cannot be verified excuses blocked: a resource the service does not have, or one at another version from the start; a verifiable one does not', () => {
    const blocked = finalRecords({ a: op(['authorized', 'blocked']) });
    const planned = (resource: string, version: string) => [{ kind: 'publish' as const, key: 'a', body: 'x', input: { resource, version } }];
    expect(checkConvergence(run({ operations: planned('missing', 'v1'), final: blocked }))).toEqual([]);
    expect(checkConvergence(run({ operations: planned('config', 'v0'), final: blocked }))).toEqual([]);
    expect(checkConvergence(run({ operations: planned('config', 'v1'), final: blocked }))).toHaveLength(1);
  });

  test('a spent retry budget excuses blocked, counted in what the journal reported or, for one that reports only its current state, in what durasim observed', () => {
    const budget = { scenario: { task: { operations: [{ kind: 'publish' as const, key: 'a', body: 'x' }], retryBudget: { perOperation: 1, perTask: 2 } } } };
    const blocked = { a: op(['blocked'], { reported: 'state' as const }) };
    // Nothing reported shows the send: the blocked stays unexcused.
    expect(checkConvergence(run({ ...budget, final: finalRecords(blocked) }))).toHaveLength(1);
    const observed = { a: [{ state: 'authorized', seq: 10, image: 'durable' as const }, { state: 'dispatched', seq: 20, image: 'visible' as const }, { state: 'blocked', seq: 60, image: 'durable' as const }] };
    expect(checkConvergence(run({ ...budget, final: finalRecords(blocked), observed }))).toEqual([]);
    expect(checkConvergence(run({ ...budget, final: finalRecords({ a: op(['authorized', 'dispatched', 'reconciling', 'blocked']) }) }))).toEqual([]);
  });
});

describe('convergence under a service contract', () => {
  const timed = (timeMs: (seq: number) => number) => Array.from({ length: 100 }, (_, seq) => ({ seq, actor: 'worker-0', op: 'clock.now', detail: '', timeMs: timeMs(seq) }));
  const blocked = finalRecords({ a: op(['authorized', 'dispatched', 'outcome_unknown', 'reconciling', 'blocked']) });
  const observed = { a: [{ state: 'authorized', seq: 10, image: 'durable' as const }, { state: 'dispatched', seq: 20, image: 'durable' as const }, { state: 'blocked', seq: 90, image: 'durable' as const }] };

  test("blocked is excused once the key's time-to-live ran out since its first send (the service may have forgotten it), not before", () => {
    // A worker frozen for a day right after it recorded dispatched: its send's answer never came.
    const frozen = timed((seq) => (seq > 20 ? 86_401_000 : 0));
    expect(checkConvergence(run({ trace: frozen, observed, final: blocked, keyTtlMs: 86_400_000 }))).toEqual([]);
    expect(checkConvergence(run({ trace: timed(() => 0), observed, final: blocked, keyTtlMs: 86_400_000 }))).toHaveLength(1);
    expect(checkConvergence(run({ trace: frozen, observed, final: blocked }))).toHaveLength(1);
  });

  test('blocked is excused where no query can find a send in doubt (a contract whose queries take the receipt alone)', () => {
    expect(checkConvergence(run({ final: blocked, keyQuery: false }))).toEqual([]);
    expect(checkConvergence(run({ final: blocked, keyQuery: true }))).toHaveLength(1);
  });
});
