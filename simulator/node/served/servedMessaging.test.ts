/**
 * A process's own channels in the world: a message is delivered as the receiving process's code
 * (a trace entry says so), dies with the incarnation at a crash, and an exception in its handler
 * ends the incarnation as an uncaught one does. Atomics.wait moves the virtual clock and nothing else.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import type { JournalAdapter } from '../../../model/contract/contract.js';
import { baseScenario } from '../../../src/arbitraries.js';
import type { Fault } from '../../scenario/scenario.js';
import { simulate } from '../../simulate.js';

const scenario = (faults: Fault[] = []) => ({ ...baseScenario([]), task: { id: 'messages', operations: [] }, faults });
const journal = (run: () => Promise<void>): JournalAdapter => ({ name: 'messages', run, inspect: () => ({}) });

describe('MessageChannel in the world', () => {
  test('a delivery is a trace entry of the receiving process; posting is no step', async () => {
    const result = await simulate(
      journal(async () => {
        const { port1, port2 } = new MessageChannel();
        const got = new Promise<unknown>((resolve) => (port1.onmessage = (event) => resolve(event.data)));
        port2.postMessage({ n: 1 });
        await fsp.writeFile('got.json', JSON.stringify(await got));
        port1.close();
      }),
      scenario(),
    );
    expect(result.outcome).toEqual({ kind: 'completed' });
    const worker = result.trace.filter((t) => t.actor === 'worker-0');
    // (the two 'close' tasks close() queued die with the process: run() returned; what it left pending dies with it)
    expect(worker.map((t) => `${t.op}${t.step === undefined ? '' : ` step ${t.step}`}`)).toEqual(['message', 'fs.promises.writeFile step 0', 'fs.promises.writeFile step 1', 'fs.promises.writeFile step 2']);
    expect(worker[0]?.detail).toBe('MessagePort 1 message delivered');
  });

  test('a message not yet delivered at a crash is never delivered: the port died with its process', async () => {
    const delivered: number[] = [];
    let incarnation = 0;
    const result = await simulate(
      journal(async () => {
        const mine = incarnation++;
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = () => delivered.push(mine);
        port2.postMessage('x');
        fs.writeFileSync(`step-${mine}.txt`, 'x'); // an atomic step in the same turn: the crash after it lands before the message's task
        await new Promise((resolve) => setTimeout(resolve, 10));
        port1.close();
      }),
      scenario([{ kind: 'crash', process: 0, incarnation: 0, step: 0, when: 'after', mode: 'keep-all' }]),
    );
    expect(result.crashes).toHaveLength(1);
    expect(delivered).toEqual([1]);
  });

  test('a message is ready at once: delivered before the process\'s next step completes, as Node delivers it before a file write', async () => {
    const order: string[] = [];
    await simulate(
      journal(async () => {
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = () => order.push('message');
        port2.postMessage('x');
        await fsp.writeFile('a.txt', 'a');
        order.push('write');
        port1.close();
      }),
      scenario(),
    );
    expect(order).toEqual(['message', 'write']);
  });

  test("an exception in a message handler ends the incarnation, as an uncaught one ends a process", async () => {
    const result = await simulate(
      journal(async () => {
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = () => {
          throw new TypeError('handler broke');
        };
        port2.postMessage('x');
        await new Promise((resolve) => setTimeout(resolve, 10));
        await fsp.writeFile('never.txt', 'x');
      }),
      { ...scenario(), bounds: { ...baseScenario([]).bounds, maxIncarnations: 2 } },
    );
    expect(result.exits[0]).toMatchObject({ pid: 0, incarnation: 0 });
    expect(result.exits[0]?.error).toContain('TypeError: handler broke');
    expect(result.trace.some((t) => t.op === 'fs.promises.writeFile')).toBe(false);
  });
});

describe('Atomics.wait in the world', () => {
  test('moves the virtual clock on by its timeout, in one atomic step, the same on every run', async () => {
    const seen: number[] = [];
    const run = journal(async () => {
      const before = Date.now();
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      seen.push(Date.now() - before);
    });
    const [a, b] = [await simulate(run, scenario()), await simulate(run, scenario())];
    expect(seen).toEqual([250, 250]);
    expect(a.traceHash).toBe(b.traceHash);
    expect(a.trace.filter((t) => t.op === 'Atomics.wait').map((t) => [t.step, t.detail])).toEqual([[1, '250ms']]); // step 0: Date.now
  });

  test('a wait past the virtual-time bound ends the run there (bounds-exceeded), never a real wait', async () => {
    const result = await simulate(
      journal(async () => {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 * 24 * 3600 * 1000);
      }),
      scenario(),
    );
    expect(result.outcome).toMatchObject({ kind: 'bounds-exceeded', bound: 'virtual-time' });
  });
});
