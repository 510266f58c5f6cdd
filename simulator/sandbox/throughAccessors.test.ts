import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { throughAccessors } from './sharedBaseline.js';

/** What the walk would visit next from `target`: the names it queued. */
function queued(target: object): string[] {
  const queue: [unknown, string][] = [];
  throughAccessors(target, 't', queue);
  return queue.map(([, name]) => name);
}

describe("the shared-object baseline follows getters (what only a getter hands out: navigator, crypto.subtle)", () => {
  test('what a getter gives the same every time joins the walk, from the object and from its prototype chain with it as receiver', () => {
    const singleton = {};
    const kept = new WeakMap<object, object>();
    class Holder {
      get held(): object {
        if (!kept.has(this)) kept.set(this, {});
        return kept.get(this) as object;
      }
    }
    const target = Object.defineProperty(new Holder(), 'own', { get: () => singleton });
    expect(queued(target)).toEqual(['t.own (what its getter gives)', 't.held (what its getter gives)', 't.__proto__ (what its getter gives)']);
  });

  test('what a getter makes afresh at each call is left (it carries nothing to a later call, and following it would never end)', () => {
    const target = Object.defineProperty(Object.create(null), 'fresh', { get: () => ({}) });
    expect(queued(target)).toEqual([]);
  });

  test("a stream is left (the thread's own I/O changes as it is written), a primitive too, and a getter that throws gives nothing", () => {
    const stream = new PassThrough();
    const target = Object.create(null, { io: { get: () => stream }, n: { get: () => 1 }, bad: { get: () => { throw new Error('no'); } } });
    expect(queued(target)).toEqual([]);
  });

  test('a rejected promise a getter gives is handled, so no rejection is left behind', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const target = Object.create(null, { closed: { get: () => Promise.reject(new Error('closed')) } });
      expect(queued(target)).toEqual([]);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
