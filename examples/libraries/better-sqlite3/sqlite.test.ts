/**
 * A journal that imports better-sqlite3 runs under simulation unmodified (issue 53): durasim serves
 * the module on SQLite compiled to WebAssembly whose VFS is the simulated disk, so every page
 * write, sync and delete is a step, the same scenario gives the same trace, and what SQLite's
 * journal mode and synchronous level leave unsynced is what a power loss takes.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { simulate, type SimulationResult } from '../../../simulator/simulate.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { bundleJournal } from '../../../src/isolation/bundleJournal.js';
import { compileJournal } from '../../../src/isolation/journalInstances.js';
import { journalRefOf } from '../../../src/isolation/journalRef.js';
import { judge, verdict } from '../../../model/judge.js';
import type { Scenario } from '../../../simulator/scenario/scenario.js';

const ROOT = join(import.meta.dirname, '../../..');

async function run(journal: string, scenario: Scenario = baseScenario()): Promise<SimulationResult> {
  const instances = await compileJournal(await bundleJournal(journalRefOf(join(import.meta.dirname, `${journal}.ts`))), join(ROOT, 'src/index.ts'));
  return simulate(instances.fresh(), scenario, { fresh: instances.fresh });
}

const safety = (result: SimulationResult): string[] => verdict(judge(result)).safety.map((v) => `${v.code} ${v.key}: ${v.actual}`);

describe('better-sqlite3, served', () => {
  test('a journal that imports it runs unmodified: SQLite\'s calls are steps, the run is clean and replays to the same trace', async () => {
    const first = await run('journal');
    expect(first.escapes).toEqual([]);
    expect(first.outcome.kind).toBe('completed');
    expect(safety(first)).toEqual([]);
    const ops = first.trace.filter((e) => e.actor === 'worker-0').map((e) => `${e.op} ${e.detail ?? ''}`);
    expect(ops).toContain('sqlite.xOpen journal.db create');
    expect(ops).toContain('sqlite.xSync journal.db-journal and its folder');
    expect(ops).toContain('sqlite.xDelete journal.db-journal and fsync its folder');
    expect(first.final.durable['post-a']).toMatchObject({ kind: 'operation', history: ['succeeded'] });
    const second = await run('journal');
    expect(second.traceHash).toBe(first.traceHash);
  });

  test('WAL with synchronous=NORMAL commits without an fsync: the dispatched record is only in the page cache when the request leaves', async () => {
    expect(safety(await run('wal-normal'))).toContain(
      'write-ahead post-a: no durable record of the key (only in the page cache: a machine crash here would lose journal.db-wal: 24720 unsynced bytes lost — fsync the file)',
    );
    expect(safety(await run('wal-full'))).toEqual([]);
    expect(safety(await run('sync-off'))[0]).toMatch(/^write-ahead post-a: no durable record of the key \(only in the page cache: a machine crash here would lose journal\.db/);
  });

  test('a power loss right after the request: WAL/NORMAL loses the committed record, rollback/EXTRA keeps it, and SQLite\'s recovery reads each image', async () => {
    const powerLossAfterSend = async (journal: string): Promise<SimulationResult> => {
      const clean = await run(journal);
      const send = clean.trace.find((e) => e.actor === 'worker-0' && e.op === 'fetch' && e.detail?.startsWith('POST /operations/post-a'));
      expect(send?.step).toBeDefined();
      return run(journal, { ...baseScenario(), faults: [{ kind: 'crash', process: 0, incarnation: 0, step: send?.step as number, when: 'after', mode: 'lose-unsynced' }] });
    };
    const normal = await powerLossAfterSend('wal-normal');
    expect(normal.crashes[0]?.records['post-a']).toBeUndefined();
    expect(normal.crashes[0]?.disk.lostData.map((lost) => lost.path).join(' ')).toContain('journal.db-wal');
    const extra = await powerLossAfterSend('journal');
    expect(extra.crashes[0]?.records['post-a']).toMatchObject({ kind: 'operation', history: ['dispatched'] });
    expect(safety(extra)).toEqual([]);
  });

  test('a WAL opened with SQLITE_OPEN_CREATE fsyncs its folder at its first sync even when an earlier process made it (os_unix.c\'s DIRSYNC), so an I/O error in between loses nothing', async () => {
    // The first incarnation creates journal.db-wal and dies of an EIO before syncing it; the next opens it and commits.
    const result = await run('wal-full', { ...baseScenario(), faults: [{ kind: 'io-error', process: 0, incarnation: 0, step: 32, error: 'EIO' }] });
    expect(result.trace.some((e) => e.actor === 'disk' && e.op === 'io-error')).toBe(true);
    const second = result.trace.filter((e) => e.actor === 'worker-0' && e.incarnation === 1).map((e) => `${e.op} ${e.detail ?? ''}`);
    expect(second).toContain('sqlite.xSync journal.db-wal and its folder');
    expect(safety(result)).toEqual([]);
  });

  test('an I/O error at each of SQLite\'s VFS steps reaches the disk call the step makes (the sweep tries them there: src/runner/stepKind.ts), and SQLite answers the journal with an error', async () => {
    // Rollback/EXTRA's first of each (no example truncates a file: xTruncate's ftruncate takes the fault as any other's, disk.ts).
    const clean = (await run('journal')).trace;
    for (const op of ['xOpen', 'xRead', 'xWrite', 'xSync', 'xDelete', 'xFileSize']) {
      const at = clean.find((e) => e.actor === 'worker-0' && e.step !== undefined && e.op === `sqlite.${op}`);
      expect(at, op).toBeDefined();
      const incarnation = at?.incarnation ?? 0;
      const result = await run('journal', { ...baseScenario(), faults: [{ kind: 'io-error', process: 0, incarnation, step: at?.step as number, error: 'EIO' }] });
      expect(result.trace.find((e) => e.actor === 'disk' && e.op === 'io-error')?.detail, op).toMatch(/^EIO: (?!.*makes no disk call)/);
      expect(result.trace.some((e) => e.op === `sqlite.${op}:result` && e.step === at?.step && e.incarnation === incarnation && e.detail === 'EIO'), op).toBe(true);
      expect(result.trace.find((e) => e.actor === 'supervisor' && e.op === 'exit' && e.detail?.startsWith(`worker-0#${incarnation} `))?.detail, op).toMatch(op === 'xOpen' ? /failed: SqliteError: unable to open database file$/ : /failed: SqliteError: disk I\/O error$/);
    }
  });

  test('an EIO at the WAL\'s fsync: the failed commit\'s frames are read back as committed by the next process and are never durable, so WAL/FULL loses what is recorded after them (the matrix checks WAL/FULL without I/O errors)', async () => {
    // Steps 36–42 of the first incarnation append the first transaction's frames; step 43 is their fsync.
    const result = await run('wal-full', { ...baseScenario(), faults: [{ kind: 'io-error', process: 0, incarnation: 0, step: 43, error: 'EIO' }] });
    const first = result.trace.filter((e) => e.actor === 'worker-0' && e.incarnation === 0).map((e) => `${e.step} ${e.op} ${e.detail ?? ''}`);
    expect(first).toContain('43 sqlite.xSync journal.db-wal');
    expect(first).toContain('43 sqlite.xSync:result EIO');
    expect(safety(result)[0]).toMatch(/^write-ahead post-a: no durable record of the key \(only in the page cache: a machine crash here would lose journal\.db-wal: \d+ unsynced bytes lost — fsync the file\)/);
  });
});
