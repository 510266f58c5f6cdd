/**
 * The fake service is verified, not trusted: fast-check drives the simulator's ServiceCore and
 * the model's reference semantics with the same commands — posts (with faults), queries,
 * restarts and accepted commits landing — and compares every answer and every effect count.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ServiceModel, type Memory } from '../model/serviceModel.js';
import { digestOf } from '../model/contract/digest.js';
import { VirtualClock } from '../simulator/world/clock.js';
import { DEFAULT_SERVICE, type ResponseFaultKind } from '../simulator/scenario/scenario.js';
import { ServiceCore } from '../simulator/service/service.js';
import { PROPERTY_TIMEOUT_MS, runs, seed } from './budgets.js';

interface Real {
  core: ServiceCore;
  clock: VirtualClock;
}

const KEYS = ['a', 'b', 'c'];
const BODIES = ['one', 'two'];
const FAULTS: (ResponseFaultKind | null)[] = [null, '500-before-commit', '500-after-commit', 'accept-later', 'drop-after-commit', 'wrong-key', 'wrong-digest', 'cut-body', 'delay'];

function sameEffects(model: ServiceModel, real: Real): void {
  expect(real.core.effects.map((e) => [e.key, e.digest])).toEqual(model.effects.map((e) => [e.key, e.digest]));
}

class Post implements fc.Command<ServiceModel, Real> {
  constructor(readonly key: string, readonly body: string, readonly fault: ResponseFaultKind | null) {}
  check = (): boolean => true;
  run(model: ServiceModel, real: Real): void {
    if (this.fault) real.core.scheduleFault({ kind: 'response', request: real.core.requests.length, fault: this.fault });
    const reply = real.core.receive('POST', { kind: 'publish', key: this.key }, this.body);
    const commit = this.fault === '500-before-commit' ? 'never' : this.fault === 'accept-later' ? 'later' : 'now';
    const status = model.post(this.key, digestOf(this.body), { commit });
    expect(reply.status).toBe(this.fault === '500-after-commit' ? 500 : status);
    expect(reply.deliver).toBe(this.fault === 'drop-after-commit' ? 'drop' : 'respond');
    sameEffects(model, real);
  }
  toString = (): string => `POST ${this.key} ${this.body}${this.fault ? ` [${this.fault}]` : ''}`;
}

class Get implements fc.Command<ServiceModel, Real> {
  constructor(readonly key: string) {}
  check = (): boolean => true;
  run(model: ServiceModel, real: Real): void {
    const reply = real.core.receive('GET', { kind: 'query', key: this.key }, '');
    const expected = model.get(this.key);
    expect(reply.status).toBe(expected.status);
    if (expected.status === 200) expect(JSON.parse(reply.body)).toMatchObject({ key: this.key, digest: expected.digest, state: 'committed' });
  }
  toString = (): string => `GET ${this.key}`;
}

class Restart implements fc.Command<ServiceModel, Real> {
  check = (): boolean => true;
  run(model: ServiceModel, real: Real): void {
    model.restart();
    real.core.restart();
    sameEffects(model, real);
  }
  toString = (): string => 'restart';
}

class Land implements fc.Command<ServiceModel, Real> {
  check = (): boolean => true;
  run(model: ServiceModel, real: Real): void {
    model.landAll();
    while (real.clock.nextDueMs() !== undefined) for (const timer of real.clock.advance()) timer.fire();
    sameEffects(model, real);
  }
  toString = (): string => 'accepted commits land';
}

const commands = [
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...BODIES), fc.constantFrom(...FAULTS)).map(([k, b, f]) => new Post(k, b, f)),
  fc.constantFrom(...KEYS).map((k) => new Get(k)),
  fc.constant(new Restart()),
  fc.constant(new Land()),
];

describe('the fake service against its reference model', () => {
  test.prop([fc.constantFrom<Memory>('durable', 'volatile', 'none'), fc.commands(commands, { maxCommands: 40 })], { numRuns: runs(1000), seed: seed(5150) })(
    'answers and effects agree after every command, restarts and faults included',
    (memory, cmds) => {
      const clock = new VirtualClock();
      const core = new ServiceCore({ ...DEFAULT_SERVICE, idempotencyMemory: memory, existing: [], resources: {} }, [], clock);
      fc.modelRun(() => ({ model: new ServiceModel(memory), real: { core, clock } }), cmds);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
