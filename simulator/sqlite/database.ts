/**
 * better-sqlite3's Database, served (durasim substitutes this module for `better-sqlite3` when it
 * bundles a journal: src/isolation/bundleJournal.ts). Inside a simulated process it opens SQLite
 * compiled to WebAssembly on the simulated machine (connection.ts, simVfs.ts); outside any
 * simulation — and in `durasim confirm`'s real processes — it is the real, native better-sqlite3.
 *
 * Served: new Database(file, { readonly, fileMustExist, timeout, verbose }), prepare, exec,
 * pragma (and { simple }), transaction (with .deferred, .immediate, .exclusive), defaultSafeIntegers,
 * close, and the properties open, inTransaction, name, memory, readonly. Refused by name: function,
 * aggregate, table, loadExtension, backup, serialize, unsafeMode, a Buffer as the file (docs/sqlite.md).
 * better-sqlite3's compile-time defaults hold: foreign keys on, double-quoted strings refused, a
 * 16 MB page cache (set at open), and synchronous=NORMAL by default in WAL mode (the WebAssembly
 * build's own default, as better-sqlite3's: held by differential.test.ts).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { turnHolder } from '../sandbox/ambientGuard.js';
import { OPEN_FLAGS, SqliteFailure, type SqliteConnection } from './connection.js';
import { resultCodeName } from './resultCodes.js';
import { refuseUnserved, type DatabaseCore } from './served.js';
import { Statement } from './statement.js';

/** What the simulated world hands a Database it serves (simulator/node/served/servedSqlite.ts). */
export interface SqliteHost {
  /** A new connection of the calling process. */
  connect(): SqliteConnection;
  /** The path resolved against the process's folder. */
  resolve(path: string): string;
  /** Whether a folder exists (better-sqlite3 checks the database's folder before it opens). */
  folderExists(path: string): boolean;
}

/** better-sqlite3's error: SQLite's message, and its result code's name (SQLITE_CONSTRAINT_UNIQUE). */
export class SqliteError extends Error {
  code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}
Object.defineProperty(SqliteError.prototype, 'name', { value: 'SqliteError', writable: true, enumerable: false, configurable: true });

/** sqlite3_db_config verbs better-sqlite3 sets (sqlite3.h). */
const DBCONFIG = { DEFENSIVE: 1010, DQS_DML: 1013, DQS_DDL: 1014 } as const;

const realModule = (): new (...args: unknown[]) => object => {
  const require = createRequire(join(process.cwd(), 'noop.js'));
  try {
    return require('better-sqlite3') as new (...args: unknown[]) => object;
  } catch {
    return createRequire(import.meta.url)('better-sqlite3') as new (...args: unknown[]) => object;
  }
};

/**
 * Loads the real, native better-sqlite3 now, its binary too (better-sqlite3's `bindings` looks the
 * binary up with fs calls at the first open): a confirmation's real worker (src/confirm/realWorker.ts)
 * does it as its own work before the journal's steps start, so none of it is a step of the journal.
 * Throws when the binary does not load on this Node.
 */
export function loadRealModule(): void {
  const Native = realModule();
  (new Native(':memory:') as { close(): void }).close();
}

const bool = (options: Record<string, unknown>, key: string): boolean => {
  const value = options[key];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`Expected the "${key}" option to be a boolean`);
  return value;
};

class Core implements DatabaseCore {
  busy = false;
  iterating = 0;
  open = true;
  safeIntegersDefault = false;
  private transactions: Record<'default' | 'deferred' | 'immediate' | 'exclusive', Statement> | undefined;
  constructor(readonly connection: SqliteConnection, readonly facade: Database, private readonly verbose: ((sql: string) => void) | null, readonly host: SqliteHost, readonly path: string | undefined) {}

  requireOpen(): void {
    if (!this.open) throw new TypeError('The database connection is not open');
  }
  requireNotBusy(): void {
    if (this.busy || this.iterating > 0) throw new TypeError('This database connection is busy executing a query');
  }
  log(source: string): void {
    this.verbose?.(source);
  }
  translated<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof SqliteFailure) throw new SqliteError(error.message, resultCodeName(error.rc));
      throw error;
    }
  }
  totalChanges(): number {
    return this.connection.totalChanges();
  }
  prepare(source: string, internal = false, pragma = false): Statement {
    this.requireOpen();
    if (!internal) this.requireNotBusy();
    const bytes = Buffer.from(source, 'utf8');
    const prepared = this.translated(() => this.connection.prepare(bytes));
    if (prepared.stmt === 0) throw new RangeError('The supplied SQL string contains no statements');
    const rest = this.translated(() => this.connection.prepare(bytes, prepared.next));
    if (rest.stmt !== 0) {
      this.connection.finalize(rest.stmt);
      this.connection.finalize(prepared.stmt);
      throw new RangeError('The supplied SQL string contains more than one statement');
    }
    return new Statement(this, source, prepared.stmt, pragma);
  }
  transactionStatements(): Record<'default' | 'deferred' | 'immediate' | 'exclusive', Statement> {
    this.transactions ??= { default: this.prepare('BEGIN', true), deferred: this.prepare('BEGIN DEFERRED', true), immediate: this.prepare('BEGIN IMMEDIATE', true), exclusive: this.prepare('BEGIN EXCLUSIVE', true) };
    return this.transactions;
  }
}

const cores = new WeakMap<Database, Core>();
const coreOf = (db: Database): Core => cores.get(db) as Core;

export class Database {
  /** The file name as given, whether the database is in memory (or a temporary file), and whether it was opened read-only. */
  declare readonly name: string;
  declare readonly memory: boolean;
  declare readonly readonly: boolean;

  constructor(filename?: string | Buffer | null, options?: Record<string, unknown> | null) {
    const holder = turnHolder();
    const args = [filename, options];
    if (holder === null) return new (realModule())(...args) as Database;
    const served = holder.serve ? holder.serve('better-sqlite3.Database', args, undefined, new.target, () => new (realModule())(...args)) : undefined;
    // A real process (durasim confirm) answers with the real Database.
    if (!isHost(served)) return served as Database;
    if (Buffer.isBuffer(filename)) refuseUnserved('new Database(buffer) (a serialized database)');
    const given = filename ?? '';
    const opts = options ?? {};
    if (typeof given !== 'string') throw new TypeError('Expected first argument to be a string');
    if (typeof opts !== 'object') throw new TypeError('Expected second argument to be an options object');
    if ('readOnly' in opts) throw new TypeError('Misspelled option "readOnly" should be "readonly"');
    if ('memory' in opts) throw new TypeError('Option "memory" was removed in v7.0.0 (use ":memory:" filename instead)');
    const name = given.trim();
    const anonymous = name === '' || name === ':memory:';
    const readonly = bool(opts, 'readonly');
    const fileMustExist = bool(opts, 'fileMustExist');
    const timeout = 'timeout' in opts ? opts.timeout : 5000;
    const verbose = 'verbose' in opts ? opts.verbose : null;
    if (readonly && anonymous) throw new TypeError('In-memory/temporary databases cannot be readonly');
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 0) throw new TypeError('Expected the "timeout" option to be a positive integer');
    if (timeout > 0x7fffffff) throw new RangeError('Option "timeout" cannot be greater than 2147483647');
    if (verbose != null && typeof verbose !== 'function') throw new TypeError('Expected the "verbose" option to be a function');
    const path = anonymous ? name : served.resolve(name);
    if (!anonymous && !name.startsWith('file:') && !served.folderExists(path.slice(0, path.lastIndexOf('/')) || '/')) throw new TypeError('Cannot open database because the directory does not exist');
    const connection = served.connect();
    const flags = readonly ? OPEN_FLAGS.READONLY : OPEN_FLAGS.READWRITE | (fileMustExist ? 0 : OPEN_FLAGS.CREATE);
    const core = new Core(connection, this, (verbose as ((sql: string) => void) | null) ?? null, served, anonymous ? undefined : path);
    core.translated(() => connection.open(path, flags));
    connection.configure(timeout, [DBCONFIG.DEFENSIVE, 1], [DBCONFIG.DQS_DML, 0], [DBCONFIG.DQS_DDL, 0]);
    core.translated(() => connection.execAll('PRAGMA foreign_keys=1; PRAGMA cache_size=-16000'));
    cores.set(this, core);
    Object.defineProperty(this, 'name', { value: given, enumerable: true });
    Object.defineProperty(this, 'memory', { value: anonymous, enumerable: true });
    Object.defineProperty(this, 'readonly', { value: readonly, enumerable: true });
  }

  get open(): boolean {
    return coreOf(this).open;
  }

  get inTransaction(): boolean {
    const core = coreOf(this);
    return core.open && core.connection.inTransaction();
  }

  prepare(source: string): Statement {
    if (typeof source !== 'string') throw new TypeError('Expected first argument to be a string');
    return coreOf(this).prepare(source);
  }

  exec(source: string): this {
    if (typeof source !== 'string') throw new TypeError('Expected first argument to be a string');
    const core = coreOf(this);
    core.requireOpen();
    core.requireNotBusy();
    core.log(source);
    core.busy = true;
    try {
      core.translated(() => core.connection.execAll(source));
    } finally {
      core.busy = false;
    }
    return this;
  }

  pragma(source: string, options?: { simple?: boolean } | null): unknown {
    const opts = options ?? {};
    if (typeof source !== 'string') throw new TypeError('Expected first argument to be a string');
    if (typeof opts !== 'object') throw new TypeError('Expected second argument to be an options object');
    const simple = bool(opts, 'simple');
    const stmt = coreOf(this).prepare(`PRAGMA ${source}`, true, true);
    return simple ? stmt.pluck().get() : stmt.all();
  }

  transaction<A extends unknown[], R>(fn: (...args: A) => R): ((...args: A) => R) & { deferred: (...args: A) => R; immediate: (...args: A) => R; exclusive: (...args: A) => R; database: Database } {
    if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function');
    const core = coreOf(this);
    const begins = core.transactionStatements();
    const shared = {
      commit: core.prepare('COMMIT', true),
      rollback: core.prepare('ROLLBACK', true),
      savepoint: core.prepare('SAVEPOINT `\t_bs3.\t`', true),
      release: core.prepare('RELEASE `\t_bs3.\t`', true),
      rollbackTo: core.prepare('ROLLBACK TO `\t_bs3.\t`', true),
    };
    const wrap = (begin: Statement) =>
      function sqliteTransaction(this: unknown, ...args: A): R {
        const nested = core.connection.inTransaction();
        const [before, after, undo] = nested ? [shared.savepoint, shared.release, shared.rollbackTo] : [begin, shared.commit, shared.rollback];
        before.run();
        try {
          const result = fn.apply(this, args);
          if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') throw new TypeError('Transaction function cannot return a promise');
          after.run();
          return result;
        } catch (error) {
          if (core.connection.inTransaction()) {
            undo.run();
            if (undo !== shared.rollback) after.run();
          }
          throw error;
        }
      };
    const variants = { default: wrap(begins.default), deferred: wrap(begins.deferred), immediate: wrap(begins.immediate), exclusive: wrap(begins.exclusive) };
    const properties = { deferred: { value: variants.deferred }, immediate: { value: variants.immediate }, exclusive: { value: variants.exclusive }, database: { value: this, enumerable: true } };
    for (const variant of Object.values(variants)) Object.defineProperties(variant, { default: { value: variants.default }, ...properties });
    return variants.default as ReturnType<Database['transaction']> as never;
  }

  defaultSafeIntegers(toggle = true): this {
    coreOf(this).safeIntegersDefault = toggle;
    return this;
  }

  close(): this {
    const core = coreOf(this);
    if (!core.open) return this;
    core.requireNotBusy();
    core.open = false;
    core.connection.close();
    return this;
  }

  function(): never {
    return refuseUnserved('db.function()');
  }
  aggregate(): never {
    return refuseUnserved('db.aggregate()');
  }
  table(): never {
    return refuseUnserved('db.table()');
  }
  loadExtension(): never {
    return refuseUnserved('db.loadExtension()');
  }
  backup(): never {
    return refuseUnserved('db.backup()');
  }
  serialize(): never {
    return refuseUnserved('db.serialize()');
  }
  unsafeMode(): never {
    return refuseUnserved('db.unsafeMode()');
  }

  static SqliteError = SqliteError;
}

function isHost(value: unknown): value is SqliteHost {
  return typeof value === 'object' && value !== null && typeof (value as SqliteHost).connect === 'function' && typeof (value as SqliteHost).folderExists === 'function';
}

/** better-sqlite3's module as a journal's require() sees it: the Database class, with SqliteError on it. */
export const moduleExports = Database;
export { Database as default };
