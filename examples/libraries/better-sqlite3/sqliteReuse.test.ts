/**
 * A process's SQLite instance is reused by the next simulation of the thread (simulator/sqlite/
 * engine.ts), restored to what a new instance is: a connection that crashed in the middle of a
 * transaction — its locks held, its dirty pages in SQLite's cache, its database and -journal file
 * open, its stack unwound by the crash — leaves nothing of it for the next scenario.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { simulate, type SimulationResult } from '../../../simulator/simulate.js';
import { newSqlite, sqliteInstancesMade, type SqliteModule } from '../../../simulator/sqlite/engine.js';
import { SqliteConnection } from '../../../simulator/sqlite/connection.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { bundleJournal } from '../../../src/isolation/bundleJournal.js';
import { compileJournal } from '../../../src/isolation/journalInstances.js';
import { journalRefOf } from '../../../src/isolation/journalRef.js';
import type { Scenario } from '../../../simulator/scenario/scenario.js';

const ROOT = join(import.meta.dirname, '../../..');

async function run(scenario: Scenario): Promise<SimulationResult> {
  const instances = await compileJournal(await bundleJournal(journalRefOf(join(import.meta.dirname, 'journal.ts'))), join(ROOT, 'src/index.ts'));
  return simulate(instances.fresh(), scenario, { fresh: instances.fresh });
}

/** A new instance, never used: the thread's spares are taken (and dropped) until newSqlite makes one. */
function brandNew(): SqliteModule {
  for (;;) {
    const before = sqliteInstancesMade();
    const sqlite = newSqlite();
    if (sqliteInstancesMade() > before) return sqlite;
  }
}

/** Whether `sqlite`'s memory holds what a new instance's does (zeros where its memory has grown past it). */
function sameMemory(sqlite: SqliteModule, fresh: SqliteModule): boolean {
  const heap = Buffer.from(sqlite.HEAPU8.buffer, sqlite.HEAPU8.byteOffset, sqlite.HEAPU8.length);
  const clean = Buffer.from(fresh.HEAPU8.buffer, fresh.HEAPU8.byteOffset, fresh.HEAPU8.length);
  return heap.length >= clean.length && heap.subarray(0, clean.length).equals(clean) && heap.subarray(clean.length).every((byte) => byte === 0);
}

describe("a process's SQLite, reused", () => {
  test('the next scenario gets the instance of one that crashed mid-transaction, restored byte for byte to a new one, and runs the trace it runs on new instances', async () => {
    const b = baseScenario();
    brandNew(); // no spare left: b's processes get new instances
    const onNew = await run(b);
    const clean = await run(baseScenario());
    const write = clean.trace.find((e) => e.actor === 'worker-0' && e.op === 'sqlite.xWrite' && (e.detail ?? '').startsWith('journal.db 4096 bytes'));
    expect(write?.step).toBeDefined();
    // A process kill at the database's page write: the -journal file is open and written, the write lock held, the page dirty in SQLite's cache.
    const crashed = await run({ ...baseScenario(), faults: [{ kind: 'crash', process: 0, incarnation: 0, step: write?.step as number, when: 'before', mode: 'keep-all' }] });
    expect(crashed.crashes).toHaveLength(1);
    const opened = crashed.trace.filter((e) => e.actor === 'worker-0' && e.incarnation === 0).map((e) => `${e.op} ${e.detail ?? ''}`);
    expect(opened).toContain('sqlite.xOpen journal.db-journal create');
    expect(opened).toContain('sqlite.xSync journal.db-journal');

    const made = sqliteInstancesMade();
    const again = await run(b);
    expect(sqliteInstancesMade()).toBe(made); // every process of it ran on an instance handed back
    expect(again.traceHash).toBe(onNew.traceHash);
    expect(again.trace.length).toBe(onNew.trace.length);

    const reused = newSqlite();
    expect(sqliteInstancesMade()).toBe(made);
    const fresh = brandNew();
    expect(sameMemory(reused, fresh)).toBe(true);
    expect((reused as unknown as { stackSave(): number }).stackSave()).toBe((fresh as unknown as { stackSave(): number }).stackSave());
  });

  test('a connection whose SQLite was handed back refuses every call', () => {
    const connection = new SqliteConnection({ sqlite: newSqlite(), vfs: { name: 'durasim', pullShm: () => undefined, pushShm: () => undefined }, released: true });
    expect(() => connection.prepare('SELECT 1')).toThrow("durasim's SQLite: a connection of a simulation that has ended was called");
    expect(() => connection.changes()).toThrow("durasim's SQLite: a connection of a simulation that has ended was called");
  });
});
