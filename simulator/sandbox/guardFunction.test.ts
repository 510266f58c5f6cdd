import { exec, execFile } from 'node:child_process';
import { exists } from 'node:fs';
import { connect } from 'node:http2';
import { builtinModules, createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { installAmbientGuard, uninstallAmbientGuard } from './ambientGuard.js';
import { guardFunction } from './guardFunction.js';
import { baseScenario } from '../../src/arbitraries.js';
import { simulate } from '../simulate.js';

const require = createRequire(import.meta.url);

/** Every read of `fn`'s own properties, by value and by descriptor, that throws: a guard's Proxy breaking an invariant. */
function brokenReads(fn: object, path: string): string[] {
  const broken: string[] = [];
  for (const key of Reflect.ownKeys(fn)) {
    const name = `${path}.${String(key)}`;
    try {
      void (fn as Record<PropertyKey, unknown>)[key];
      Object.getOwnPropertyDescriptor(fn, key);
    } catch (error) {
      broken.push(`${name}: ${(error as Error).message.slice(0, 100)}`);
    }
  }
  return broken;
}

describe("a guard's Proxy reads as the function it guards", () => {
  test("every function of Node's modules, guarded, gives its own properties by value and by descriptor", () => {
    installAmbientGuard();
    try {
      const broken: string[] = [];
      let functions = 0;
      for (const id of builtinModules) {
        let exports: Record<string, unknown>;
        try {
          exports = require(id) as Record<string, unknown>;
        } catch {
          continue;
        }
        for (const key of Reflect.ownKeys(exports)) {
          const value = Object.getOwnPropertyDescriptor(exports, key)?.value as unknown;
          if (typeof value !== 'function') continue;
          functions++;
          broken.push(...brokenReads(value, `${id}.${String(key)}`));
        }
      }
      expect(functions).toBeGreaterThan(500);
      expect(broken).toEqual([]);
    } finally {
      uninstallAmbientGuard();
    }
  });

  test('a function holding a read-only, non-configurable function: its guard reads it (guarded), calls the real one', () => {
    const inner = (): string => 'inner';
    const real = Object.defineProperty(function real(this: unknown, x: number): number {
      return x + 1;
    }, 'pinned', { value: inner, writable: false, configurable: false, enumerable: false });
    const guarded = guardFunction(real, 'test.real');
    expect(brokenReads(guarded, 'test.real')).toEqual([]);
    expect(guarded(1)).toBe(2);
    const read = (guarded as unknown as { pinned: () => string }).pinned;
    expect(read).not.toBe(inner); // the guarded stand-in of it
    expect(read()).toBe('inner'); // outside a journal's turn it runs as itself
    expect(Object.getOwnPropertyDescriptor(guarded, 'pinned')?.value).toBe(read);
    expect(Object.keys(Object.getOwnPropertyDescriptors(guarded)).sort()).toEqual(Object.keys(Object.getOwnPropertyDescriptors(real)).sort());
    expect(new (guarded as unknown as new () => object)()).toBeInstanceOf(guarded);
  });
});

describe("Node functions whose util.promisify.custom is read-only (exec, execFile, fs.exists, http2.connect)", () => {
  test("promisify works on them in a journal's turn and outside it, and the promisified call is an escape, never a process", async () => {
    const seen: string[] = [];
    const result = await simulate(
      { name: 'promisifies', inspect: () => ({}), run: async () => {
        const run = promisify(exec);
        try {
          await run('true');
          seen.push('a real process ran');
        } catch (error) {
          seen.push((error as Error).message);
        }
        // The same function read through its descriptor is guarded as well.
        const custom = Object.getOwnPropertyDescriptor(execFile, promisify.custom)?.value as (file: string) => Promise<unknown>;
        try {
          await custom('true');
          seen.push('a real process ran');
        } catch (error) {
          seen.push((error as Error).message);
        }
      } },
      baseScenario([{ kind: 'publish', key: 'a', body: 'body' }]),
    );
    expect(seen).toEqual([expect.stringMatching(/child_process\.exec/), expect.stringMatching(/child_process\.execFile/)]);
    expect(result.escapes.map((e) => e.api)).toEqual([expect.stringMatching(/^child_process\.exec\./), expect.stringMatching(/^child_process\.execFile\./)]);
    // The guards stay on Node's modules once installed (sandbox/ambientGuard.ts): promisify of each is a function, as in Node.
    for (const fn of [exec, execFile, exists, connect] as ((...args: never[]) => unknown)[]) expect(promisify(fn)).toBeTypeOf('function');
  });
});
