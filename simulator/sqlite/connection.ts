/**
 * One SQLite connection of a simulated process, on that process's own SQLite (engine.ts) with the
 * VFS of the simulated machine (simVfs.ts): SQLite's C API as the served better-sqlite3 needs it,
 * synchronous. Every entry into SQLite runs as the world's own work (outside the journal's turn:
 * the disk's bookkeeping is no call of the journal's), with the machine's shared memory read in
 * first and written back after.
 */
import { outsideTurn } from '../sandbox/ambientGuard.js';
import type { StepHost } from '../world/host.js';
import type { Proc } from '../world/proc.js';
import { newSqlite, releaseSqlite, type SqliteModule } from './engine.js';
import { SimVfs } from './simVfs.js';

/** SQLite's fundamental datatypes (sqlite3_column_type). */
export const TYPE = { INTEGER: 1, FLOAT: 2, TEXT: 3, BLOB: 4, NULL: 5 } as const;
export const SQLITE_ROW = 100;
export const SQLITE_DONE = 101;
/** sqlite3_open_v2's flags. */
export const OPEN_FLAGS = { READONLY: 0x1, READWRITE: 0x2, CREATE: 0x4, URI: 0x40 } as const;
/** SQLite copies a bound value at once (SQLITE_TRANSIENT). */
const TRANSIENT = -1;

/** A SQLite instance and the VFS registered in it as the default; its shared memory synced around every entry. */
export interface VfsSqlite {
  sqlite: SqliteModule;
  vfs: { readonly name: string; pullShm(): void; pushShm(): void };
  /** Handed back to the thread (its simulation ended): nothing may call into it any more. */
  released?: boolean;
}
type ProcessSqlite = VfsSqlite;

const perProcess = new WeakMap<Proc, ProcessSqlite>();
/** Each simulation's process SQLites, handed back to the thread when it ends (releaseProcessSqlites). */
const perWorld = new WeakMap<StepHost, ProcessSqlite[]>();

/** The process's SQLite, made at its first connection: its memory is the process's, fresh (engine.ts), and no other process's. */
function processSqlite(world: StepHost, proc: Proc): ProcessSqlite {
  let made = perProcess.get(proc);
  if (made === undefined) {
    const sqlite = newSqlite();
    const vfs = new SimVfs(world, proc, sqlite);
    const rc = sqlite.vfs_register(vfs, true);
    if (rc !== 0) throw new Error(`durasim could not register its SQLite VFS (${rc})`);
    made = { sqlite, vfs };
    perProcess.set(proc, made);
    const ofWorld = perWorld.get(world);
    if (ofWorld === undefined) perWorld.set(world, [made]);
    else ofWorld.push(made);
  }
  return made;
}

/** The simulation of `world` has ended: its processes' SQLites go back to the thread, and a connection left over refuses every call. */
export function releaseProcessSqlites(world: StepHost): void {
  for (const made of perWorld.get(world) ?? []) {
    made.released = true;
    releaseSqlite(made.sqlite);
  }
  perWorld.delete(world);
}

/** A failed call of SQLite: its extended result code and message. */
export class SqliteFailure extends Error {
  constructor(readonly rc: number, message: string) {
    super(message);
  }
}

export class SqliteConnection {
  private readonly sqlite: SqliteModule;
  private db = 0;
  /** Eight bytes for out-parameters. */
  private readonly out: number;

  private readonly vfs: VfsSqlite['vfs'];

  /** A connection of simulated process `proc`, on its own SQLite. */
  static ofProcess(world: StepHost, proc: Proc): SqliteConnection {
    return new SqliteConnection(outsideTurn(() => processSqlite(world, proc)));
  }

  constructor(private readonly made: VfsSqlite) {
    this.sqlite = made.sqlite;
    this.vfs = made.vfs;
    this.out = this.sqlite._malloc(8);
  }

  /** Its SQLite was handed back (the simulation ended; another may run on it now): no call reaches it. */
  private live(): void {
    if (this.made.released === true) throw new Error("durasim's SQLite: a connection of a simulation that has ended was called");
  }

  private fn(name: string): (...values: number[]) => number {
    this.live();
    const f = this.sqlite[`_${name}`];
    if (f === undefined) throw new Error(`durasim's SQLite has no ${name}`);
    return f;
  }

  /** Runs `work` inside SQLite: as the world's own work, the shared memory read in first and written back after. */
  enter<T>(work: () => T): T {
    this.live();
    return outsideTurn(() => {
      this.vfs.pullShm();
      try {
        return work();
      } finally {
        this.vfs.pushShm();
      }
    });
  }

  private cString(text: string): number {
    this.live();
    const size = this.sqlite.lengthBytesUTF8(text) + 1;
    const ptr = this.sqlite._malloc(size);
    this.sqlite.stringToUTF8(text, ptr, size);
    return ptr;
  }

  private failure(rc: number): SqliteFailure {
    const message = this.db === 0 ? this.sqlite.UTF8ToString(this.fn('sqlite3_errstr')(rc)) : this.sqlite.UTF8ToString(this.fn('sqlite3_errmsg')(this.db));
    const extended = this.db === 0 ? rc : this.fn('sqlite3_extended_errcode')(this.db);
    return new SqliteFailure(extended, message);
  }

  /** sqlite3_open_v2 on the simulated machine's VFS; throws SqliteFailure. */
  open(path: string, flags: number): void {
    this.enter(() => {
      const name = this.cString(path);
      const vfs = this.cString(this.vfs.name);
      try {
        const rc = this.fn('sqlite3_open_v2')(name, this.out, flags, vfs);
        this.db = this.sqlite.getValue(this.out, '*');
        if (rc !== 0) {
          const failure = this.failure(rc);
          this.fn('sqlite3_close_v2')(this.db);
          this.db = 0;
          throw failure;
        }
        this.fn('sqlite3_extended_result_codes')(this.db, 1);
      } finally {
        this.sqlite._free(name);
        this.sqlite._free(vfs);
      }
    });
  }

  close(): void {
    if (this.db === 0) return;
    this.enter(() => {
      for (let stmt = this.fn('sqlite3_next_stmt')(this.db, 0); stmt !== 0; stmt = this.fn('sqlite3_next_stmt')(this.db, 0)) this.fn('sqlite3_finalize')(stmt);
      this.fn('sqlite3_close_v2')(this.db);
    });
    this.db = 0;
  }

  /**
   * Prepares the first statement of `sql` from byte `from` of its UTF-8 text; returns the statement
   * (0 for none: only whitespace or comments) and where the rest begins. Throws SqliteFailure.
   */
  prepare(sql: string | Uint8Array, from = 0): { stmt: number; next: number; bytes: Uint8Array } {
    const bytes = typeof sql === 'string' ? Buffer.from(sql, 'utf8') : sql;
    return this.enter(() => {
      const text = this.sqlite._malloc(bytes.length + 1);
      this.sqlite.HEAPU8.set(bytes, text);
      this.sqlite.HEAPU8[text + bytes.length] = 0;
      try {
        const rc = this.fn('sqlite3_prepare_v2')(this.db, text + from, bytes.length - from, this.out, this.out + 4);
        if (rc !== 0) throw this.failure(rc);
        const stmt = this.sqlite.getValue(this.out, '*');
        const tail = this.sqlite.getValue(this.out + 4, '*');
        return { stmt, next: tail - text, bytes };
      } finally {
        this.sqlite._free(text);
      }
    });
  }

  finalize(stmt: number): void {
    this.enter(() => this.fn('sqlite3_finalize')(stmt));
  }

  reset(stmt: number): void {
    this.enter(() => this.fn('sqlite3_reset')(stmt));
  }

  clearBindings(stmt: number): void {
    this.enter(() => this.fn('sqlite3_clear_bindings')(stmt));
  }

  /** sqlite3_step: SQLITE_ROW or SQLITE_DONE; anything else throws SqliteFailure (the statement reset). */
  step(stmt: number): number {
    return this.enter(() => {
      const rc = this.fn('sqlite3_step')(stmt);
      if (rc === SQLITE_ROW || rc === SQLITE_DONE) return rc;
      const failure = this.failure(rc);
      this.fn('sqlite3_reset')(stmt);
      throw failure;
    });
  }

  paramCount(stmt: number): number {
    return this.fn('sqlite3_bind_parameter_count')(stmt);
  }

  /** A parameter's name with its prefix (`@id`, `:id`, `$id`), or undefined for `?`. */
  paramName(stmt: number, index: number): string | undefined {
    const ptr = this.fn('sqlite3_bind_parameter_name')(stmt, index);
    return ptr === 0 ? undefined : this.sqlite.UTF8ToString(ptr);
  }

  /** The index of the parameter named `name` with its prefix (`$id`), or 0 when none is. */
  paramIndex(stmt: number, name: string): number {
    const ptr = this.cString(name);
    try {
      return this.fn('sqlite3_bind_parameter_index')(stmt, ptr);
    } finally {
      this.sqlite._free(ptr);
    }
  }

  /** sqlite3_errstr: the English text of a result code. */
  errstr(rc: number): string {
    return this.sqlite.UTF8ToString(this.fn('sqlite3_errstr')(rc));
  }

  readonly(stmt: number): boolean {
    return this.fn('sqlite3_stmt_readonly')(stmt) !== 0;
  }

  columnCount(stmt: number): number {
    return this.fn('sqlite3_column_count')(stmt);
  }

  columnName(stmt: number, index: number): string {
    return this.sqlite.UTF8ToString(this.fn('sqlite3_column_name')(stmt, index));
  }

  /** Binds one value: null, a number (a double), a bigint (an int64), a string, or bytes. Throws SqliteFailure. */
  bind(stmt: number, index: number, value: null | number | bigint | string | Uint8Array): void {
    this.enter(() => {
      let rc: number;
      if (value === null) rc = this.fn('sqlite3_bind_null')(stmt, index);
      else if (typeof value === 'number') rc = this.fn('sqlite3_bind_double')(stmt, index, value);
      else if (typeof value === 'bigint') rc = this.fn('sqlite3_bind_int64')(stmt, index, Number(BigInt.asUintN(32, value)), Number(BigInt.asIntN(64, value) >> 32n));
      else {
        const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
        const ptr = this.sqlite._malloc(Math.max(1, bytes.length));
        this.sqlite.HEAPU8.set(bytes, ptr);
        rc = this.fn(typeof value === 'string' ? 'sqlite3_bind_text' : 'sqlite3_bind_blob')(stmt, index, ptr, bytes.length, TRANSIENT);
        this.sqlite._free(ptr);
      }
      if (rc !== 0) throw this.failure(rc);
    });
  }

  columnType(stmt: number, index: number): number {
    return this.fn('sqlite3_column_type')(stmt, index);
  }

  columnInt64(stmt: number, index: number): bigint {
    const lo = this.fn('sqlite3_column_int64')(stmt, index);
    return this.i64(lo);
  }

  columnDouble(stmt: number, index: number): number {
    return this.fn('sqlite3_column_double')(stmt, index);
  }

  columnText(stmt: number, index: number): string {
    const ptr = this.fn('sqlite3_column_text')(stmt, index);
    const size = this.fn('sqlite3_column_bytes')(stmt, index);
    return Buffer.from(this.sqlite.HEAPU8.subarray(ptr, ptr + size)).toString('utf8');
  }

  columnBlob(stmt: number, index: number): Buffer {
    const ptr = this.fn('sqlite3_column_blob')(stmt, index);
    const size = this.fn('sqlite3_column_bytes')(stmt, index);
    return Buffer.from(this.sqlite.HEAPU8.subarray(ptr, ptr + size));
  }

  /** A 64-bit result from its low half and emscripten's high-half register. */
  private i64(lo: number): bigint {
    const hi = (this.sqlite as unknown as { getTempRet0(): number }).getTempRet0();
    return (BigInt(hi) << 32n) | BigInt(lo >>> 0);
  }

  changes(): number {
    return this.fn('sqlite3_changes')(this.db);
  }

  lastInsertRowid(): bigint {
    return this.i64(this.fn('sqlite3_last_insert_rowid')(this.db));
  }

  inTransaction(): boolean {
    return this.db !== 0 && this.fn('sqlite3_get_autocommit')(this.db) === 0;
  }

  totalChanges(): number {
    return this.fn('sqlite3_total_changes')(this.db);
  }

  /** The busy timeout, and sqlite3_db_config verbs with their int value (a variadic call: its arguments in memory). */
  configure(busyTimeoutMs: number, ...verbs: [number, number][]): void {
    this.enter(() => {
      this.fn('sqlite3_busy_timeout')(this.db, busyTimeoutMs);
      const args = this.sqlite._malloc(8);
      try {
        for (const [verb, value] of verbs) {
          this.sqlite.setValue(args, value, 'i32');
          this.sqlite.setValue(args + 4, 0, '*');
          this.fn('sqlite3_db_config')(this.db, verb, args);
        }
      } finally {
        this.sqlite._free(args);
      }
    });
  }

  /** Every statement of `sql` run to its end, in order (sqlite3_exec's loop). Throws SqliteFailure. */
  execAll(sql: string): void {
    const bytes = Buffer.from(sql, 'utf8');
    let from = 0;
    while (from < bytes.length) {
      const { stmt, next } = this.prepare(bytes, from);
      if (stmt === 0) break;
      try {
        while (this.step(stmt) === SQLITE_ROW);
      } finally {
        this.finalize(stmt);
      }
      from = next;
    }
  }
}
