/**
 * The served better-sqlite3 held to the native one (12.11.1): the same statements, pragmas and
 * mistakes give the same results, the same types (numbers, BigInt with safeIntegers, Buffers,
 * null) and the same errors (class, message, SQLite code) in both. The served module is
 * simulator/sqlite/database.ts: outside a simulation it is the native module itself, inside a
 * simulated process it is SQLite compiled to WebAssembly on the simulated disk — so each case runs
 * once outside and once inside a journal's run().
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import Database from '../../../simulator/sqlite/database.js';
import { simulate } from '../../../simulator/simulate.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { nativeSqliteMissing } from './nativeSqlite.js';

type Db = InstanceType<typeof Database>;
type Outcome = { value: unknown } | { error: { name: string; message: string; code?: unknown } };

/** Each case: a name, and what it does with a database opened on `file`. */
type Open = (options?: { name?: string } & Record<string, unknown>) => Db;
const CASES: [string, (open: Open) => unknown][] = [
  ['types round-trip', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n, any)');
    const put = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)');
    const info = put.run(42, 1.5, 'héllo', Buffer.from([0, 1, 255]), null, 7);
    put.run(9007199254740993n, -0.25, '', Buffer.alloc(0), undefined, 'x');
    return { info, rows: db.prepare('SELECT *, typeof(any) AS ta, typeof(i) AS ti FROM t').all(), raw: db.prepare('SELECT i, s FROM t').raw().all(), pluck: db.prepare('SELECT s FROM t').pluck().all() };
  }],
  ['safe integers', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (i INTEGER PRIMARY KEY, v INTEGER)');
    const info = db.prepare('INSERT INTO t (v) VALUES (?)').safeIntegers().run(9007199254740993n);
    return { info, big: db.prepare('SELECT v FROM t').safeIntegers().get(), lossy: db.prepare('SELECT v FROM t').get(), defaults: db.defaultSafeIntegers().prepare('SELECT v, 1.5 AS f FROM t').get() };
  }],
  ['parameters by position, array and name', (open) => {
    const db = open();
    return [
      db.prepare('SELECT ? AS a, ? AS b').get(1, 'two'),
      db.prepare('SELECT ? AS a, ? AS b').get([1, 2]),
      db.prepare('SELECT @x AS x, :y AS y, $z AS z').get({ x: 1, y: 'y', z: null }),
      db.prepare('SELECT ? AS a, @x AS x').get(5, { x: 6 }),
      db.prepare('SELECT ?1 AS a, ?1 AS b').get(3),
      db.prepare('SELECT ? AS a').bind(8).get(),
    ];
  }],
  ['parameter mistakes', (open) => {
    const db = open();
    const attempts: (() => unknown)[] = [
      () => db.prepare('SELECT ? AS a, ? AS b').get(1),
      () => db.prepare('SELECT ? AS a').get(1, 2),
      () => db.prepare('SELECT @x AS x').get({ y: 1 }),
      () => db.prepare('SELECT @x AS x').get(),
      () => db.prepare('SELECT ? AS a').get(true),
      () => db.prepare('SELECT ? AS a').get(new Date(0)),
      () => db.prepare('SELECT @x AS x').get({ x: 1 }, { x: 2 }),
      () => db.prepare('SELECT ? AS a').bind(1).get(2),
      () => { const s = db.prepare('SELECT ? AS a').bind(1); return s.bind(2); },
      () => db.prepare('SELECT ? AS a').get(2n ** 70n),
    ];
    return attempts.map(outcome);
  }],
  ['statement mistakes', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (i)');
    const attempts: (() => unknown)[] = [
      () => db.prepare('INSERT INTO t VALUES (1)').get(),
      () => db.prepare('INSERT INTO t VALUES (1)').pluck(),
      () => db.prepare('SELECT 1; SELECT 2'),
      () => db.prepare('  -- nothing\n'),
      () => db.prepare('SELEC 1'),
      () => db.prepare('SELECT "nope"').get(),
      () => db.prepare('SELECT * FROM missing').all(),
      () => db.exec('SELECT 1; SELEC 2'),
    ];
    return attempts.map(outcome);
  }],
  ['constraints and their codes', (open) => {
    const db = open();
    db.exec('CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, n INTEGER CHECK (n > 0)); CREATE TABLE c (pid INTEGER REFERENCES p(id))');
    db.prepare('INSERT INTO p VALUES (1, ?, 1)').run('a');
    const attempts: (() => unknown)[] = [
      () => db.prepare('INSERT INTO p VALUES (1, ?, 1)').run('b'),
      () => db.prepare('INSERT INTO p VALUES (2, ?, 1)').run('a'),
      () => db.prepare('INSERT INTO p VALUES (3, NULL, 1)').run(),
      () => db.prepare('INSERT INTO p VALUES (4, ?, 0)').run('d'),
      () => db.prepare('INSERT INTO c VALUES (99)').run(),
      () => db.prepare('INSERT INTO c VALUES (1)').run(),
    ];
    return attempts.map(outcome);
  }],
  ['pragmas and their defaults', (open) => {
    const db = open();
    const before = { mode: db.pragma('journal_mode', { simple: true }), sync: db.pragma('synchronous', { simple: true }), fk: db.pragma('foreign_keys', { simple: true }), cache: db.pragma('cache_size', { simple: true }) };
    const wal = db.pragma('journal_mode = WAL');
    const switched = db.pragma('synchronous', { simple: true });
    db.exec('CREATE TABLE x (a); INSERT INTO x VALUES (1)');
    const written = db.pragma('synchronous', { simple: true });
    const reopened = open().pragma('synchronous', { simple: true });
    const after = { set: db.pragma('synchronous = FULL'), now: db.pragma('synchronous', { simple: true }) };
    return { before, wal, switched, written, reopened, after, list: (db.pragma('table_list') as unknown[]).length > 0 };
  }],
  ['transactions', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (v)');
    const add = db.prepare('INSERT INTO t VALUES (?)');
    const many = db.transaction((values: number[]) => {
      for (const v of values) add.run(v);
      return db.inTransaction;
    });
    const inside = many([1, 2]);
    const failed = outcome(() => many.immediate([3, 'x', 4].map((v) => { if (v === 'x') throw new Error('stop'); return v as number; }) as number[]));
    const nested = db.transaction(() => {
      add.run(10);
      try {
        db.transaction(() => { add.run(11); throw new Error('inner'); })();
      } catch { /* the savepoint is rolled back */ }
      add.run(12);
    });
    nested.exclusive();
    return { inside, failed, after: db.inTransaction, rows: db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all() };
  }],
  ['iterate, columns, properties, close', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2), (3, 4)');
    const stmt = db.prepare('SELECT a, b AS bee FROM t');
    const rows = [...stmt.iterate()];
    const busy = outcome(() => {
      for (const row of stmt.iterate()) {
        void row;
        db.prepare('SELECT 1').get();
      }
    });
    const columns = stmt.columns().map((c) => c.name);
    const props = { reader: stmt.reader, readonly: stmt.readonly, source: stmt.source, open: db.open, memory: db.memory, readonlyDb: db.readonly };
    db.close();
    return { rows, busy, columns, props, closed: db.open, after: outcome(() => stmt.get()) };
  }],
  ['opening', (open) => [outcome(() => open({ fileMustExist: true, name: 'absent.db' })), outcome(() => open({ readOnly: true })), outcome(() => open({ timeout: -1 })), outcome(() => new Database(':memory:', { readonly: true }))]],
];

function outcome(work: () => unknown): Outcome {
  try {
    return { value: work() };
  } catch (error) {
    const e = error as { name: string; message: string; code?: unknown };
    return { error: { name: e.name, message: e.message, ...(e.code !== undefined ? { code: e.code } : {}) } };
  }
}

/** Every case, with its databases named in `folder` (a fresh file per case). */
function runCases(folder: string): Outcome[] {
  return CASES.map((_, i) =>
    outcome(() => {
      const open: Open = (options = {}) => {
        const { name: file, ...rest } = options;
        return new Database(join(folder, file ?? `case-${i}.db`), rest);
      };
      return (CASES[i] as (typeof CASES)[number])[1](open);
    }) as Outcome & { name?: string },
  ).map((result, i) => ({ ...result, case: CASES[i]?.[0] }));
}

/** On a Node whose ABI the native binary was not built for (CI's Node 22 and 24 stages), the comparison cannot run: said so, and skipped. */
const missing = nativeSqliteMissing();
if (missing !== undefined) test.skip(`skipped: ${missing}`, () => {});

test.skipIf(missing !== undefined)('the served better-sqlite3 answers as the native one, case by case', async () => {
  const native = runCases(mkdtempSync(join(tmpdir(), 'durasim-bs3-')));
  let served: Outcome[] = [];
  const result = await simulate({ name: 'differential', run: async () => { served = runCases('.'); }, inspect: () => ({}) }, baseScenario());
  expect(result.escapes).toEqual([]);
  expect(served).toHaveLength(CASES.length);
  for (let i = 0; i < CASES.length; i++) expect({ case: CASES[i]?.[0], ...served[i] }).toEqual({ case: CASES[i]?.[0], ...native[i] });
});
