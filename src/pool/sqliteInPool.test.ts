/**
 * A journal on better-sqlite3 run in the worker pool as `durasim check` runs it: the thread is one
 * that runs journals (closed: code no simulated process runs is refused), and the served SQLite's
 * WebAssembly engine is loaded there on the first `new Database()`, inside a journal's call. Its
 * files are durasim's own to read; the journal's database is on the simulated disk, and a crash and
 * restart find the rows committed before it (SQLite's recovery at the next open).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { journalRefOf } from '../isolation/journalRef.js';
import { WorkerPool } from './workerPool.js';

const JOURNAL = `
import Database from 'better-sqlite3';
export default {
  name: 'sqlite-in-pool',
  async run(env) {
    const db = new Database('rows.db');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE IF NOT EXISTS rows (n INTEGER)');
    const seen = db.prepare('SELECT count(*) AS n FROM rows').get().n;
    db.prepare('INSERT INTO rows (n) VALUES (?)').run(seen);
    await env.fs.appendFile('seen.txt', seen + '\\n');
    db.close();
  },
  inspect(disk) {
    const text = disk.readFile('seen.txt');
    return text === undefined ? {} : { seen: { kind: 'operation', history: [], digest: text } };
  },
};
`;

/** Killed right after its first line is written, restarted once. */
const scenario = { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [] }, faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'seen.txt', occurrence: 0 }, when: 'after' }] };
let pool: WorkerPool;

beforeAll(() => {
  pool = new WorkerPool({ workers: 1 });
});

afterAll(() => pool.close());

test('a better-sqlite3 journal runs in a pool worker: no escape, the row committed before the crash read back after it, the same trace again', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'durasim-sqlite-pool-')), 'journal.mjs');
  writeFileSync(file, JOURNAL);
  const loaded = await pool.load(journalRefOf(file));
  const outcome = await pool.run(loaded.journalId, scenario, { detail: 'full', modules: 'fresh', then: 'same' });
  const first = outcome.kind === 'simulated' ? outcome : undefined;
  if (!first?.result || !first.again?.result) throw new Error(`the journal did not run: ${JSON.stringify(outcome).slice(0, 300)}`);
  expect(first.result.escapes).toEqual([]);
  expect(first.result.stats.incarnations).toBe(2);
  expect((first.result.final.visible.seen as { digest?: string } | undefined)?.digest).toBe('0\n1\n');
  expect(first.result.trace.some((entry) => entry.op === 'sqlite.xSync')).toBe(true);
  expect(first.again.result.traceHash).toBe(first.result.traceHash);
});
