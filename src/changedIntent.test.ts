/**
 * The intent family's changed body keeps the body's format: one JSON value or one form field
 * changed, plain text as it always was; and a property over generated scenarios: every body the
 * family hands a later incarnation parses as its content type (JSON stays JSON, a form stays a
 * form), is another body, and — under a contract — another intent as the service judges it.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseContract } from '../simulator/contract/parseContract.js';
import { intentOf } from '../simulator/contract/classify.js';
import type { ServiceContract } from '../simulator/contract/contract.js';
import { baseScenario, scenarioArbitrary, STANDARD_OPERATIONS } from './arbitraries.js';
import { changedIntent, structuredBody } from './changedIntent.js';
import { runs, seed } from '../properties/budgets.js';

const contractOf = (json: unknown): ServiceContract => parseContract(json, 'service', (field, problem) => {
  throw new Error(`${field} ${problem}`);
}) as ServiceContract;
const plain = { plainSuffix: ' (changed)' };

describe('a changed intent, in the body\'s own format', () => {
  test('JSON: one value changed — a number by one, a string on its version or marked, the pick-th in document order — and never text appended', () => {
    const body = '{"amount":1200,"currency":"eur","metadata":{"order":"o-7 v1"}}';
    expect(changedIntent(body, plain)).toBe('{"amount":1201,"currency":"eur","metadata":{"order":"o-7 v1"}}');
    expect(changedIntent(body, { ...plain, pick: 1 })).toBe('{"amount":1200,"currency":"eur (changed)","metadata":{"order":"o-7 v1"}}');
    expect(changedIntent(body, { ...plain, pick: 2 })).toBe('{"amount":1200,"currency":"eur","metadata":{"order":"o-7 v2"}}');
    expect(changedIntent(body, { ...plain, pick: 3 })).toBe(changedIntent(body, plain));
    // Its layout kept: indented as it was, its trailing newline.
    expect(changedIntent('{\n  "amount": 5,\n  "ok": true\n}\n', { ...plain, pick: 1 })).toBe('{\n  "amount": 5,\n  "ok": false\n}\n');
    // Nothing to change: a field (or an item) more, still JSON.
    expect(changedIntent('{}', plain)).toBe('{"changed":true}');
    expect(changedIntent('[]', plain)).toBe('[true]');
    expect(changedIntent('41', plain)).toBe('42');
  });

  test('under a contract: never the key the body carries; with listed intent pointers, a value at them', () => {
    const token = contractOf({ preset: 'client-token' });
    expect(changedIntent('{"ClientToken":"t-1","ImageId":"ami-v1"}', { contract: token, ...plain })).toBe('{"ClientToken":"t-1","ImageId":"ami-v2"}');
    const listed = contractOf({ preset: 'ietf', effects: [{ method: 'POST', path: '/orders', key: { header: 'Idempotency-Key' }, intent: { pointers: ['/amount'] } }] });
    expect(changedIntent('{"note":"any","amount":5}', { contract: listed, ...plain })).toBe('{"note":"any","amount":6}');
  });

  test('form-encoded: one field\'s value changed, the other fields as they were', () => {
    expect(changedIntent('amount=1200&currency=eur&memo=rent+v1', plain)).toBe('amount=1201&currency=eur&memo=rent+v1');
    expect(changedIntent('amount=1200&currency=eur&memo=rent+v1', { ...plain, pick: 1 })).toBe('amount=1200&currency=eur+%28changed%29&memo=rent+v1');
    expect(changedIntent('amount=1200&currency=eur&memo=rent+v1', { ...plain, pick: 2 })).toBe('amount=1200&currency=eur&memo=rent+v2');
  });

  test('plain text as it always was: v1 → v2, or the suffix', () => {
    expect(changedIntent('artifact a v1', plain)).toBe('artifact a v2');
    expect(changedIntent('hello world', plain)).toBe('hello world (changed)');
    expect(changedIntent('hello world', { plainSuffix: ' (v2)' })).toBe('hello world (v2)');
    expect(STANDARD_OPERATIONS.some((op) => op.kind === 'publish' && structuredBody(op.body))).toBe(false);
  });
});

/** How a body reads as its content type: JSON, a form, or text. */
const formatOf = (body: string): 'json' | 'form' | 'text' => {
  try {
    JSON.parse(body);
    return 'json';
  } catch {
    return /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/.test(body) && [...new URLSearchParams(body).keys()].length === body.split('&').length ? 'form' : 'text';
  }
};

describe('every body the intent family makes parses as its content type', () => {
  const json = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })), { maxKeys: 4 }).map((o) => JSON.stringify(o));
  const form = fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,5}$/), fc.oneof(fc.nat().map(String), fc.string({ maxLength: 6 }))), { minLength: 1, maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
  const text = fc.constantFrom('artifact a v1', 'send the invoice', 'x');
  const contracts = fc.constantFrom<ServiceContract | undefined>(undefined, contractOf({ preset: 'payments' }), contractOf({ preset: 'client-token' }), contractOf({ preset: 'ietf', effects: [{ method: 'POST', path: '/orders', key: { header: 'Idempotency-Key' }, intent: 'raw' }] }));

  test('JSON stays JSON, a form stays a form, and the intent is another (under a contract, as its service judges it)', () => {
    const bodies = fc.array(fc.oneof(json, form, text), { minLength: 1, maxLength: 3 });
    const task = fc.tuple(bodies, contracts).chain(([list, contract]) => {
      const task = baseScenario(list.map((body, i) => ({ kind: 'publish' as const, key: `op-${i}`, body: contract?.preset === 'client-token' && formatOf(body) === 'json' ? JSON.stringify({ ClientToken: `op-${i}`, ...(JSON.parse(body) as object) }) : body })));
      return fc.tuple(fc.constant(task), fc.constant(contract), scenarioArbitrary({ task, faults: ['intent'], swarm: false, ...(contract ? { contract } : {}) }));
    });
    let changes = 0;
    fc.assert(fc.property(task, ([, contract, scenario]) => {
      const after = scenario.taskAfterRestart?.operations ?? [];
      for (const op of scenario.task.operations) {
        const moved = after.find((o) => o.key === op.key);
        if (op.kind !== 'publish' || moved?.kind !== 'publish') continue;
        changes++;
        expect(formatOf(moved.body), `${op.body} → ${moved.body}`).toBe(formatOf(op.body));
        expect(moved.body).not.toBe(op.body);
        const route = contract?.effects[0];
        if (route) expect(intentOf(route, moved.body)).not.toBe(intentOf(route, op.body));
        if (contract?.preset === 'client-token' && formatOf(op.body) === 'json') expect((JSON.parse(moved.body) as { ClientToken: string }).ClientToken).toBe(op.key);
      }
    }), { numRuns: runs(300), seed: seed(41) });
    expect(changes).toBeGreaterThan(0);
  });
});
