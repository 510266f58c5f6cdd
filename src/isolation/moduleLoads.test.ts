/**
 * What a module does while it loads is no step (scenario format 3): whenever it loads — with the
 * journal, on a first require() inside run() (esbuild's lazily evaluated wrappers, bracketed by
 * moduleLoads.ts), or by import() of a name known only at run time (dynamicModules.ts). Format 2
 * files replay as they ran: those clock reads were steps.
 */
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { baseScenario } from '../arbitraries.js';
import { simulate } from '../../simulator/simulate.js';
import { bundleJournal } from './bundleJournal.js';
import { compileJournal } from './journalInstances.js';
import { journalRefOf } from './journalRef.js';
import { bracketLazyModules, LOAD_PARAM } from './moduleLoads.js';

const ROOT = resolve(import.meta.dirname, '../..');
const JOURNAL = join(ROOT, 'properties/fixtures/lazyModules/journal.mjs');

describe('modules loaded lazily, inside run()', () => {
  test("every module body esbuild evaluates on its first require() is called inside the load bracket", async () => {
    const { code } = await bundleJournal(journalRefOf(JOURNAL));
    // esbuild's two wrappers (a CommonJS module, an ES module required) each call the body once: both go through the bracket.
    expect(code).toContain('var __commonJS = ');
    expect(code).toContain('var __esm = ');
    const bracketed = bracketLazyModules(code);
    expect(bracketed.match(new RegExp(`${LOAD_PARAM}\\((cb|fn)\\[__getOwnPropNames\\(\\1\\)\\[0\\]\\]\\)\\(`, 'g'))).toHaveLength(2);
    expect(bracketed).not.toMatch(/\(0, (cb|fn)\[__getOwnPropNames/);
  });

  test('their clock reads at load are no step in format 3, and were steps in format 2', async () => {
    const instances = await compileJournal(await bundleJournal(journalRefOf(JOURNAL)), join(ROOT, 'src/index.ts'));
    const steps = async (version: number): Promise<string[]> => {
      const result = await simulate(instances.fresh(), { ...baseScenario([]), version }, { fresh: instances.fresh });
      expect(result.escapes).toEqual([]);
      expect(result.final.files).toBeDefined();
      return result.trace.filter((e) => e.actor === 'worker-0' && e.step !== undefined).map((e) => e.op);
    };
    expect(await steps(3)).toEqual(['fs.promises.writeFile', 'fs.promises.writeFile', 'fs.promises.writeFile']);
    expect(await steps(2)).toEqual(['Date.now', 'Date.now', 'Date.now', 'fs.promises.writeFile', 'fs.promises.writeFile', 'fs.promises.writeFile']);
  });
});
