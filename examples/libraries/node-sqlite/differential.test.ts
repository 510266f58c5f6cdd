/**
 * The served node:sqlite held to Node's own (issue 53 item 7): the same statements, options and
 * mistakes give the same results — values and their types (numbers, bigints with readBigInts,
 * Uint8Arrays, null; rows as null-prototype objects, arrays with returnArrays; run()'s result
 * with its keys in Node's order) — and the same errors (class, message, code, errcode, errstr).
 * Outside a simulation `new DatabaseSync()` is Node's own; inside a journal's run() it is served
 * (simulator/sqlite/nodeSqlite.ts) — so each case runs once outside and once inside.
 * node:sqlite exists from Node 22.5: on Node 20 the test skips, saying so.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { simulate } from '../../../simulator/simulate.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { nodeSqliteMissing, type NodeSqlite } from './nodeSqlite.js';

type Db = InstanceType<NodeSqlite['DatabaseSync']>;
type Outcome = { value: unknown } | { error: Record<string, unknown> };
type Open = (options?: { name?: string } & Record<string, unknown>) => Db;

/** A value as a comparable tree: a bigint, bytes and an object's prototype (null or not) and key order said. */
function shape(value: unknown): unknown {
  if (typeof value === 'bigint') return { bigint: String(value) };
  if (value instanceof Uint8Array) return { bytes: [...value], buffer: Buffer.isBuffer(value) };
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object' && value !== null) return { proto: Object.getPrototypeOf(value) === null ? null : 'object', entries: Object.entries(value).map(([k, v]) => [k, shape(v)]) };
  return value;
}

function outcome(work: () => unknown): Outcome {
  try {
    return { value: shape(work()) };
  } catch (error) {
    const e = error as Error & Record<string, unknown>;
    return { error: { name: e.name, message: e.message, ...Object.fromEntries(['code', 'errcode', 'errstr'].filter((k) => e[k] !== undefined).map((k) => [k, e[k]])) } };
  }
}

const CASES: [string, (open: Open) => unknown][] = [
  ['types round-trip', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n, any)');
    const put = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)');
    const info = put.run(42, 1.5, 'héllo', Buffer.from([0, 1, 255]), null, 7);
    const more = put.run(2n ** 40n, -0.25, '', new Uint8Array(0), null, 'x');
    return { info, more, rows: db.prepare('SELECT *, typeof(any) AS ta, typeof(i) AS ti FROM t').all(), views: db.prepare('SELECT ? AS dv').get(new DataView(new Uint8Array([7, 8]).buffer)) };
  }],
  ['integers: past 2^53, readBigInts', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (v INTEGER)');
    db.prepare('INSERT INTO t VALUES (?)').run(9007199254740993n);
    const big = db.prepare('SELECT v FROM t');
    const lossy = outcome(() => big.get());
    big.setReadBigInts(true);
    const run = db.prepare('INSERT INTO t VALUES (1)');
    run.setReadBigInts(true);
    return { lossy, big: big.get(), run: run.run(), tooBig: outcome(() => db.prepare('SELECT ?').get(2n ** 64n)), whole: open({ name: 'bigints.db', readBigInts: true }).prepare('SELECT 1 AS a, 1.5 AS b').get() };
  }],
  ['parameters: by position, by name, bare names, mistakes', (open) => {
    const db = open();
    const q = (sql: string, ...params: unknown[]): Outcome => outcome(() => db.prepare(sql).get(...params));
    return [
      q('SELECT ? AS a, ? AS b', 1, 'two'),
      q('SELECT $a AS a, :b AS b, @c AS c', { a: 1, b: 2, c: 3 }),
      q('SELECT $a AS a', { $a: 5 }),
      q('SELECT $a AS a', { ':a': 5 }),
      q('SELECT $a AS a', { a: 1, z: 2 }),
      q('SELECT $a AS a, $b AS b', { a: 1 }),
      q('SELECT ? AS x, $a AS y', { a: 1 }, 5),
      q('SELECT ?1 AS x, ?2 AS y', 5, 6),
      q('SELECT $a AS x, :a AS y', { a: 1 }),
      q('SELECT ? AS a', [1]),
      q('SELECT ? AS a'),
      q('SELECT ? AS a', 1, 2),
      q('SELECT ? AS a', true),
      q('SELECT typeof(?) AS a', false),
      q('SELECT ? AS a', undefined),
      q('SELECT ? AS a', {}),
      q('SELECT ? AS a', null),
      q('SELECT typeof(?) AS t, typeof(?) AS u', 1, 1n),
      outcome(() => {
        const s = db.prepare('SELECT $a AS a');
        s.setAllowUnknownNamedParameters(true);
        const unknown = s.get({ a: 1, z: 2 });
        s.setAllowBareNamedParameters(false);
        return [unknown, outcome(() => s.get({ a: 1 }))];
      }),
    ];
  }],
  ['SQLite errors and their codes', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, p INTEGER REFERENCES t(k))');
    db.prepare('INSERT INTO t VALUES (?, NULL)').run('a');
    return [
      outcome(() => db.prepare('INSERT INTO t VALUES (?, NULL)').run('a')),
      outcome(() => db.prepare('INSERT INTO t VALUES (?, ?)').run('b', 'nope')),
      outcome(() => db.prepare('SELEC 1')),
      outcome(() => db.prepare('SELECT "x"')),
      outcome(() => db.exec('INSERT INTO nope VALUES (1)')),
      outcome(() => db.exec(5 as unknown as string)),
      outcome(() => db.prepare(5 as unknown as string)),
    ];
  }],
  ['pragmas: defaults, WAL keeps synchronous FULL', (open) => {
    const db = open();
    const pragma = (name: string): unknown => db.prepare(`PRAGMA ${name}`).get();
    const before = ['journal_mode', 'synchronous', 'foreign_keys', 'busy_timeout', 'cache_size'].map(pragma);
    const wal = pragma('journal_mode = WAL');
    return { before, wal, after: pragma('synchronous'), normal: (db.exec('PRAGMA synchronous = NORMAL'), pragma('synchronous')) };
  }],
  ['options', (open) => [
    outcome(() => open({ name: 'fk.db', enableForeignKeyConstraints: false }).prepare('PRAGMA foreign_keys').get()),
    outcome(() => open({ name: 'dqs.db', enableDoubleQuotedStringLiterals: true }).prepare('SELECT "x" AS a').get()),
    outcome(() => open({ name: 'timeout.db', timeout: 250 }).prepare('PRAGMA busy_timeout').get()),
    outcome(() => open({ name: 'arrays.db', returnArrays: true }).prepare('SELECT 1 AS a, 2 AS b').all()),
    outcome(() => open({ readOnly: 1 })),
    outcome(() => open({ timeout: 1.5 })),
    outcome(() => open({ name: 'absent.db', readOnly: true })),
    outcome(() => open({ name: 'no/such/folder.db' })),
  ]],
  ['transactions, iterate, open and close', (open) => {
    const db = open();
    db.exec('CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2), (3, 4)');
    db.exec('BEGIN');
    const inside = db.isTransaction;
    db.exec('INSERT INTO t VALUES (5, 6)');
    db.exec('ROLLBACK');
    const stmt = db.prepare('SELECT a, b AS bee FROM t');
    const it = stmt.iterate();
    const first = it.next();
    const meanwhile = db.prepare('SELECT count(*) AS n FROM t').get();
    const rest = [it.next(), it.next()];
    const early = stmt.iterate();
    const returned = [early.next(), early.return?.(), early.next()];
    const spread = [...stmt.iterate()];
    const changes = (db.prepare('INSERT INTO t VALUES (7, 8)').run(), db.prepare('SELECT 1').run());
    const source = db.prepare('SELECT 1 AS a; SELECT 2').sourceSQL;
    db.close();
    return { inside, after: outcome(() => db.isTransaction), first, meanwhile, rest, returned, spread, changes, source, isOpen: db.isOpen, closedStmt: outcome(() => stmt.all()), closedDb: outcome(() => db.prepare('SELECT 1')), again: outcome(() => db.close()) };
  }],
  ['opened later', (open) => {
    const db = open({ open: false });
    const before = outcome(() => db.exec('SELECT 1'));
    db.open();
    return { before, isOpen: db.isOpen, twice: outcome(() => db.open()) };
  }],
];

/** Every case, with its databases named in `folder` (a fresh file per case). */
function runCases(sqlite: NodeSqlite, folder: string): (Outcome & { case?: string })[] {
  return CASES.map(([name, work], i) => ({
    case: name,
    ...outcome(() => {
      const open: Open = (options = {}) => {
        const { name: file, ...rest } = options;
        return new sqlite.DatabaseSync(join(folder, file ?? `case-${i}.db`), rest);
      };
      return work(open);
    }),
  }));
}

const missing = nodeSqliteMissing();
if (missing !== undefined) test.skip(`skipped: ${missing}`, () => {});

test.skipIf(missing !== undefined)('the served node:sqlite answers as Node\'s own, case by case', async () => {
  const sqlite = process.getBuiltinModule('node:sqlite') as NodeSqlite;
  const native = runCases(sqlite, mkdtempSync(join(tmpdir(), 'durasim-node-sqlite-')));
  let served: ReturnType<typeof runCases> = [];
  const result = await simulate({ name: 'differential', run: async () => { served = runCases(sqlite, '.'); }, inspect: () => ({}) }, baseScenario());
  expect(result.escapes).toEqual([]);
  expect(served).toHaveLength(CASES.length);
  for (let i = 0; i < CASES.length; i++) expect(served[i]).toEqual(native[i]);
});

test.skipIf(missing !== undefined)('what is not served is refused by name, in the words of every refusal', async () => {
  const sqlite = process.getBuiltinModule('node:sqlite') as NodeSqlite;
  const refusals: string[] = [];
  const result = await simulate(
    {
      name: 'refusals',
      run: async () => {
        const db = new sqlite.DatabaseSync(':memory:') as unknown as Record<string, () => unknown>;
        const stmt = (db.prepare as unknown as (sql: string) => Record<string, unknown>)('SELECT 1');
        for (const attempt of [() => db.function?.(), () => db.createSession?.(), () => db.loadExtension?.(), () => (stmt.columns as () => unknown)(), () => stmt.expandedSQL]) {
          try {
            attempt();
            refusals.push('served');
          } catch (error) {
            refusals.push((error as Error).message);
          }
        }
      },
      inspect: () => ({}),
    },
    baseScenario(),
  );
  expect(result.escapes).toEqual([]);
  const fix = 'Use what is served — new DatabaseSync(path, options), exec, prepare and its statements (run, get, all, iterate, setReadBigInts, setReturnArrays, setAllowBareNamedParameters, setAllowUnknownNamedParameters, sourceSQL), open, close, isOpen, isTransaction — listed in docs/sqlite.md';
  expect(refusals).toEqual(['db.function()', 'db.createSession()', 'db.loadExtension()', 'statement.columns()', 'statement.expandedSQL'].map((what) => `Failed to run the journal under simulation: node:sqlite's ${what} is not served by durasim's SQLite. ${fix}.`));
});
