/**
 * Differential: the event loop's order as the world serves it against real Node. Each probe
 * interleaves a MessagePort's messages, BroadcastChannel, Atomics.waitAsync and Atomics.wait with
 * timers and immediates, and reports what ran in which order; it runs on real Node (started from
 * a setImmediate callback, so its loop phase is fixed) and inside a simulation, and the two reports
 * must be equal. The probes hold orders real Node gives every time (timers long enough that no
 * machine's speed changes them); where Node's order depends on timing, both orders are legal and
 * none is asked for.
 */
import { describe, expect, test } from 'vitest';
import type { JournalAdapter } from '../../../model/contract/contract.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { simulate } from '../../simulate.js';

type Probe = () => Promise<string>;

/** Node's MessagePort (worker_threads) has on(); the DOM type the global declares does not. */
type NodePort = MessagePort & { on(event: string, listener: (value: unknown) => void): NodePort };
const nodePorts = (): { port1: NodePort; port2: NodePort } => new MessageChannel() as unknown as { port1: NodePort; port2: NodePort };
/** Atomics.waitAsync (ES2024; Node 20 has it). */
const waitAsync = (array: Int32Array, index: number, value: number, timeoutMs?: number): { async: boolean; value: Promise<string> | string } =>
  (Atomics as unknown as { waitAsync: typeof waitAsync }).waitAsync(array, index, value, timeoutMs); // looked up at the call: the sandbox guards it

/** Resolves once `count` names are in `order`. */
const until = (order: string[], count: number): Promise<void> =>
  new Promise((done) => {
    const check = (): void => {
      if (order.length >= count) done();
      else setTimeout(check, 5);
    };
    check();
  });

const PROBES: Record<string, Probe> = {
  'a message before a 10 ms timer set first': async () => {
    const order: string[] = [];
    const { port1, port2 } = new MessageChannel();
    setTimeout(() => order.push('timer'), 10);
    port1.onmessage = () => order.push('message');
    port2.postMessage('x');
    await until(order, 2);
    port1.close();
    return order.join(',');
  },
  'a message before an immediate set first': async () => {
    const order: string[] = [];
    const { port1, port2 } = new MessageChannel();
    setImmediate(() => order.push('immediate'));
    port1.onmessage = () => order.push('message');
    port2.postMessage('x');
    await until(order, 2);
    port1.close();
    return order.join(',');
  },
  'messages in the order posted, an immediate posted between them after both': async () => {
    const order: string[] = [];
    const { port1, port2 } = nodePorts();
    port1.on('message', (value: unknown) => order.push(`message ${String(value)}`));
    port2.postMessage(1);
    setImmediate(() => order.push('immediate'));
    port2.postMessage(2);
    await until(order, 3);
    port1.close();
    return order.join(',');
  },
  'a message is a clone, given to on() listeners as the value and to onmessage as an event': async () => {
    const got: string[] = [];
    const { port1, port2 } = nodePorts();
    const sent = { n: 1, list: [1, 2] };
    port1.on('message', (value: unknown) => got.push(`on ${JSON.stringify(value)} same:${String(value === sent)}`));
    port1.onmessage = (event: MessageEvent) => got.push(`onmessage ${event.constructor.name} ${JSON.stringify(event.data)}`);
    port2.postMessage(sent);
    sent.n = 2;
    await until(got, 2);
    port1.close();
    return got.sort().join(' | ');
  },
  'a port holds its messages until something listens; what was posted before comes then': async () => {
    const order: string[] = [];
    const { port1, port2 } = new MessageChannel();
    port2.postMessage('early');
    await new Promise((resolve) => setTimeout(resolve, 30));
    order.push('30 ms later');
    port1.addEventListener('message', (event) => order.push(`message ${String((event as MessageEvent).data)}`));
    await until(order, 2);
    port1.close();
    return order.join(',');
  },
  'close() drops what the closing port had not delivered; both ends hear close': async () => {
    const order: string[] = [];
    const { port1, port2 } = nodePorts();
    port1.onmessage = () => order.push('message');
    port1.on('close', () => order.push('close 1'));
    port2.on('close', () => order.push('close 2'));
    port2.postMessage('x');
    port1.close();
    await until(order, 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return order.sort().join(',');
  },
  'a BroadcastChannel reaches the others of its name, not itself': async () => {
    const order: string[] = [];
    const [a, b, c] = [new BroadcastChannel('probe'), new BroadcastChannel('probe'), new BroadcastChannel('other')];
    a.onmessage = () => order.push('a');
    b.onmessage = (event: MessageEvent) => order.push(`b ${String(event.data)}`);
    c.onmessage = () => order.push('c');
    a.postMessage('hi');
    await until(order, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const channel of [a, b, c]) channel.close();
    return order.join(',');
  },
  'Atomics.waitAsync of 20 ms before a 1,000 ms timer': async () => {
    const order: string[] = [];
    const cell = new Int32Array(new SharedArrayBuffer(4));
    const waited = waitAsync(cell, 0, 0, 20);
    void Promise.resolve(waited.value).then((value) => order.push(`wait ${String(value)}`));
    setTimeout(() => order.push('timer'), 1000);
    await until(order, 2);
    return `${String(waited.async)} ${order.join(',')}`;
  },
  'Atomics.waitAsync woken by Atomics.notify; not-equal and a zero timeout answer at once': async () => {
    const cell = new Int32Array(new SharedArrayBuffer(8));
    const woken = waitAsync(cell, 0, 0, 10_000);
    const count = Atomics.notify(cell, 0, 1);
    const value = await woken.value;
    const unequal = waitAsync(cell, 1, 7, 100);
    const zero = waitAsync(cell, 1, 0, 0);
    return `notify woke ${count}: ${String(value)} · ${String(unequal.async)} ${String(unequal.value)} · ${String(zero.async)} ${String(zero.value)}`;
  },
  'Atomics.wait of 50 ms blocks the thread: the clock moves on by it, a 10 ms timer set before fires after': async () => {
    const order: string[] = [];
    const cell = new Int32Array(new SharedArrayBuffer(4));
    setTimeout(() => order.push('timer'), 10);
    const before = Date.now();
    const result = Atomics.wait(cell, 0, 0, 50);
    order.push(`wait ${result} ${Date.now() - before >= 50 ? 'at least 50 ms' : 'shorter'}`);
    await until(order, 2);
    return `${order.join(',')} · not-equal: ${Atomics.wait(cell, 0, 1, 50)}`;
  },
};

/** A probe on real Node, started from a setImmediate callback (a fixed phase of the loop). */
const onRealNode = (probe: Probe): Promise<string> => new Promise((resolve, reject) => setImmediate(() => probe().then(resolve, reject)));

async function simulated(probe: Probe): Promise<{ answer: string; escapes: number; outcome: string }> {
  let answer = 'never answered';
  const journal: JournalAdapter = {
    name: 'event-loop-order',
    run: async () => {
      answer = await probe();
    },
    inspect: () => ({}),
  };
  const result = await simulate(journal, { ...baseScenario([]), task: { id: 'order', operations: [] } });
  return { answer, escapes: result.escapes.length, outcome: result.outcome.kind };
}

describe('the event loop as the world serves it orders as real Node does', () => {
  for (const [name, probe] of Object.entries(PROBES)) {
    test(name, async () => {
      const real = await onRealNode(probe);
      const served = await simulated(probe);
      expect(served).toEqual({ answer: real, escapes: 0, outcome: 'completed' });
    });
  }

  test('the simulated order is the same on every run', async () => {
    const hashes = new Set<string>();
    const journal: JournalAdapter = {
      name: 'event-loop-order',
      run: async () => {
        for (const probe of Object.values(PROBES)) await probe();
      },
      inspect: () => ({}),
    };
    for (let i = 0; i < 3; i++) hashes.add((await simulate(journal, { ...baseScenario([]), task: { id: 'order', operations: [] } })).traceHash);
    expect(hashes.size).toBe(1);
  });
});
