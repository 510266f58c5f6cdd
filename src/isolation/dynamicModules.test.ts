/**
 * import() inside a journal, in the worker pool as `check` runs it: a template import is bundled,
 * a name known only at run time is loaded then — afresh in every incarnation (module memory dies
 * with the process), shared within one — a missing module fails as Node's does, and one durasim
 * cannot bundle is a sandbox finding, never a silent pass.
 */
import { resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { journalRefOf } from './journalRef.js';
import { WorkerPool } from '../pool/workerPool.js';

const JOURNAL = resolve(import.meta.dirname, '../../properties/fixtures/dynamicImport/journal.ts');
const pool = new WorkerPool({ workers: 1 });
afterAll(() => pool.close());

const scenario = (key: string, faults: unknown[] = []) => ({ format: 'durasim.scenario', version: 1, task: { id: 't', operations: [{ kind: 'lookup', key, resource: 'config' }] }, service: { resources: { config: 'v1' } }, faults });

describe('import() in a journal', () => {
  test('bundled, loaded at run time afresh per incarnation, a missing one as Node fails it', async () => {
    const loaded = await pool.load(journalRefOf(JOURNAL));
    // A kill after the write, before the process ends: the next incarnation loads the counter afresh.
    const outcome = await pool.run(loaded.journalId, scenario('read', [{ kind: 'crash', process: 0, incarnation: 0, step: 0, when: 'after', mode: 'keep-all' }]), { detail: 'full', modules: 'fresh', then: 'same' });
    if (outcome.kind !== 'simulated' || !outcome.result) throw new Error(`did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
    expect(outcome.result.escapes).toEqual([]);
    expect(outcome.result.crashes).toHaveLength(1);
    const written = (outcome.result.final.visible.loaded as { digest?: string }).digest;
    expect(JSON.parse(written ?? '{}')).toEqual({ tag: 'alpha', loads: [1, 2], npm: 'function', missing: 'ERR_MODULE_NOT_FOUND' });
    expect(outcome.again?.result?.traceHash).toBe(outcome.result.traceHash);
  });

  test('a module durasim cannot bundle is an escape (exit 4), named with the fix', async () => {
    const loaded = await pool.load(journalRefOf(JOURNAL));
    const outcome = await pool.run(loaded.journalId, scenario('unbundleable'), { detail: 'full', modules: 'fresh' });
    if (outcome.kind !== 'simulated' || !outcome.result) throw new Error(`did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
    expect(new Set(outcome.result.escapes.map((e) => e.api))).toEqual(new Set(['import("./awaits.mjs")']));
    expect(outcome.result.escapes[0]?.message).toBe('it called import("./awaits.mjs"), which durasim could not bundle to load afresh in every incarnation');
    expect(outcome.result.exits[0]?.error).toMatch(/^DurasimError: Failed to load a module the journal imported: import\("\.\/awaits\.mjs"\) from .*journal\.ts resolves, but durasim could not bundle it: Top-level await is currently not supported with the "cjs" output format\. Import it with a string literal/);
  });
});
