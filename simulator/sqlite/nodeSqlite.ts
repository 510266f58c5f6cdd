/**
 * node:sqlite's DatabaseSync (Node 22.5 and later), served: `new DatabaseSync(path, options)` in a
 * simulated process is answered with this class (node/served/servedSqlite.ts), over the same SQLite
 * in WebAssembly and the same VFS as the served better-sqlite3 — every page write, sync and delete a
 * step of the process on the simulated disk; inside inspect(), a database on the image being read
 * (imageVfs.ts). Outside a simulation the guard passes the call to Node's own module.
 *
 * Served: the constructor with a path (a string, bytes or a file: URL) and its options (open,
 * readOnly, enableForeignKeyConstraints, enableDoubleQuotedStringLiterals, timeout, readBigInts,
 * returnArrays, allowBareNamedParameters, allowUnknownNamedParameters; allowExtension accepted,
 * loading one refused), open, close, exec, prepare (its statements: nodeStatement.ts), isOpen,
 * isTransaction. Node's defaults hold: foreign keys on, double-quoted strings refused, no busy
 * timeout, and synchronous=FULL in every journal mode (Node's SQLite keeps FULL in WAL mode; the
 * WebAssembly build's WAL default is NORMAL, so FULL is set at open). Refused by name: function,
 * aggregate, createSession, applyChangeset, enableLoadExtension, loadExtension, enableDefensive,
 * createTagStore, location, serialize, deserialize, setAuthorizer (docs/sqlite.md). Node 22 and 24
 * differ, and each is answered as its own Node does: run()'s result's key order, an empty
 * statement (24: refused at prepare), a boolean as a value (24: the integer 1 or 0).
 */
import { fileURLToPath } from 'node:url';
import { OPEN_FLAGS, SqliteFailure, type SqliteConnection } from './connection.js';
import type { SqliteHost } from './database.js';
import { NODE_MAJOR, nodeError, notOpen, refuseNodeSqlite, sqliteError } from './nodeErrors.js';
import { StatementSync, type NodeDatabaseCore, type StatementOptions } from './nodeStatement.js';

/** sqlite3_db_config verbs Node sets (sqlite3.h). */
const DBCONFIG = { ENABLE_FKEY: 1002, DQS_DML: 1013, DQS_DDL: 1014 } as const;

interface DatabaseOptions extends StatementOptions {
  open: boolean;
  readOnly: boolean;
  enableForeignKeyConstraints: boolean;
  enableDoubleQuotedStringLiterals: boolean;
  timeout: number;
}

const BOOLEAN_OPTIONS = ['open', 'readOnly', 'enableForeignKeyConstraints', 'enableDoubleQuotedStringLiterals', 'allowExtension', 'readBigInts', 'returnArrays', 'allowBareNamedParameters', 'allowUnknownNamedParameters'] as const;

function optionsOf(given: unknown): DatabaseOptions {
  const options: DatabaseOptions = { open: true, readOnly: false, enableForeignKeyConstraints: true, enableDoubleQuotedStringLiterals: false, timeout: 0, readBigInts: false, returnArrays: false, allowBareNamedParameters: true, allowUnknownNamedParameters: false };
  if (given === undefined) return options;
  if (typeof given !== 'object' || given === null) throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options" argument must be an object.');
  const source = given as Record<string, unknown>;
  for (const name of BOOLEAN_OPTIONS) {
    const value = source[name];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options.${name}" argument must be a boolean.`);
    if (name !== 'allowExtension') options[name] = value;
  }
  if (source.timeout !== undefined) {
    if (typeof source.timeout !== 'number' || !Number.isInteger(source.timeout)) throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.timeout" argument must be an integer.');
    options.timeout = source.timeout;
  }
  return options;
}

/** The path as Node takes it: a string, bytes or a file: URL, without a NUL. */
function pathOf(given: unknown): { path: string; uri: boolean } {
  const invalid = (): Error => nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "path" argument must be a string, Uint8Array, or URL without null bytes.');
  let path: string;
  let uri = false;
  if (typeof given === 'string') path = given;
  else if (given instanceof Uint8Array) path = Buffer.from(given).toString('utf8');
  else if (given instanceof URL) {
    if (given.protocol !== 'file:') throw invalid();
    path = fileURLToPath(given);
  } else throw invalid();
  if (path.includes('\0')) throw invalid();
  if (path.startsWith('file:')) uri = true;
  return { path, uri };
}

class Core implements NodeDatabaseCore {
  /** The open connection (undefined: closed, or not opened yet). */
  current: SqliteConnection | undefined;
  /** The statements prepared on the open connection: closing finalizes them. */
  readonly statements = new Set<number>();

  constructor(readonly host: SqliteHost, readonly location: { path: string; uri: boolean }, readonly options: DatabaseOptions) {}

  get open(): boolean {
    return this.current !== undefined;
  }

  get connection(): SqliteConnection {
    return this.conn();
  }

  live(stmt: number): boolean {
    return this.current !== undefined && this.statements.has(stmt);
  }

  translated<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof SqliteFailure) throw sqliteError(error.message, error.rc, this.conn().errstr(error.rc));
      throw error;
    }
  }

  /** The open connection, or the error Node throws when there is none. */
  conn(): SqliteConnection {
    if (this.current === undefined) throw notOpen();
    return this.current;
  }

  openNow(): void {
    if (this.current !== undefined) throw nodeError(Error, 'ERR_INVALID_STATE', 'database is already open');
    const { path, uri } = this.location;
    const anonymous = path === '' || path === ':memory:';
    const connection = this.host.connect();
    const flags = (this.options.readOnly ? OPEN_FLAGS.READONLY : OPEN_FLAGS.READWRITE | OPEN_FLAGS.CREATE) | (uri ? OPEN_FLAGS.URI : 0);
    try {
      connection.open(anonymous || uri ? path : this.host.resolve(path), flags);
    } catch (error) {
      if (error instanceof SqliteFailure) throw sqliteError(error.message, error.rc, connection.errstr(error.rc));
      throw error;
    }
    this.current = connection;
    const o = this.options;
    connection.configure(Math.max(0, o.timeout), [DBCONFIG.DQS_DML, o.enableDoubleQuotedStringLiterals ? 1 : 0], [DBCONFIG.DQS_DDL, o.enableDoubleQuotedStringLiterals ? 1 : 0], [DBCONFIG.ENABLE_FKEY, o.enableForeignKeyConstraints ? 1 : 0]);
    // Node's SQLite keeps synchronous=FULL in WAL mode; set, it stays (the WebAssembly build's WAL default is NORMAL).
    this.translated(() => connection.execAll('PRAGMA synchronous=FULL'));
  }

  close(): void {
    const connection = this.conn();
    this.statements.clear();
    this.current = undefined;
    connection.close();
  }
}

const cores = new WeakMap<DatabaseSync, Core>();
const coreOf = (db: DatabaseSync): Core => cores.get(db) as Core;

export class DatabaseSync {
  /** Made by the world (servedSqlite.ts) with the process's host, for `new DatabaseSync(path, options)`. */
  constructor(host: SqliteHost, path: unknown, options?: unknown) {
    const core = new Core(host, pathOf(path), optionsOf(options));
    cores.set(this, core);
    if (core.options.open) core.openNow();
  }

  get isOpen(): boolean {
    return coreOf(this).open;
  }

  get isTransaction(): boolean {
    return coreOf(this).conn().inTransaction();
  }

  open(): void {
    coreOf(this).openNow();
  }

  close(): void {
    coreOf(this).close();
  }

  exec(sql: unknown): void {
    const core = coreOf(this);
    const connection = core.conn();
    if (typeof sql !== 'string') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "sql" argument must be a string.');
    core.translated(() => connection.execAll(sql));
  }

  prepare(sql: unknown): StatementSync {
    const core = coreOf(this);
    const connection = core.conn();
    if (typeof sql !== 'string') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "sql" argument must be a string.');
    const bytes = Buffer.from(sql, 'utf8');
    // Only the first statement: Node prepares it and leaves the rest.
    const prepared = core.translated(() => connection.prepare(bytes));
    if (prepared.stmt === 0) {
      if (NODE_MAJOR >= 24) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', 'The SQL query contains no statements.');
    } else core.statements.add(prepared.stmt);
    return new StatementSync(core, prepared.stmt, Buffer.from(bytes.subarray(0, prepared.next)).toString('utf8'), core.options);
  }

  [Symbol.dispose](): void {
    if (coreOf(this).open) this.close();
  }

  function(): never {
    return refuseNodeSqlite('db.function()');
  }
  aggregate(): never {
    return refuseNodeSqlite('db.aggregate()');
  }
  createSession(): never {
    return refuseNodeSqlite('db.createSession()');
  }
  applyChangeset(): never {
    return refuseNodeSqlite('db.applyChangeset()');
  }
  enableLoadExtension(): never {
    return refuseNodeSqlite('db.enableLoadExtension()');
  }
  loadExtension(): never {
    return refuseNodeSqlite('db.loadExtension()');
  }
  enableDefensive(): never {
    return refuseNodeSqlite('db.enableDefensive()');
  }
  createTagStore(): never {
    return refuseNodeSqlite('db.createTagStore()');
  }
  location(): never {
    return refuseNodeSqlite('db.location()');
  }
  serialize(): never {
    return refuseNodeSqlite('db.serialize()');
  }
  deserialize(): never {
    return refuseNodeSqlite('db.deserialize()');
  }
  setAuthorizer(): never {
    return refuseNodeSqlite('db.setAuthorizer()');
  }
}

/** `new DatabaseSync(...args)` on `host`, or called without new: Node's error. */
export function servedDatabaseSync(host: SqliteHost, args: readonly unknown[], newTarget: unknown): DatabaseSync {
  if (newTarget === undefined) throw nodeError(TypeError, 'ERR_CONSTRUCT_CALL_REQUIRED', 'Cannot call constructor without `new`');
  return new DatabaseSync(host, args[0], args[1]);
}
