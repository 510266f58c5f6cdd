/**
 * node:sqlite's StatementSync, served (nodeSqlite.ts makes it): run, get, all, iterate, the
 * setters (setReadBigInts, setReturnArrays, setAllowBareNamedParameters,
 * setAllowUnknownNamedParameters) and sourceSQL, with Node's binding rules — a first argument that
 * is an object (not bytes) binds by name, a bare name (`id`) finding `$id`, `:id` or `@id`; the
 * rest bind by position, skipping named parameters; numbers as doubles, bigints as int64, strings,
 * any ArrayBufferView as a blob, null as NULL, on Node 24 a boolean as the integer 1 or 0 — and Node's answers:
 * rows as null-prototype objects (arrays with setReturnArrays), integers as numbers (a RangeError
 * past 2^53) or bigints, blobs as Uint8Arrays. columns() and expandedSQL are refused by name.
 */
import { SQLITE_ROW, TYPE, type SqliteConnection } from './connection.js';
import { finalized, NODE_MAJOR, nodeError, refuseNodeSqlite } from './nodeErrors.js';

/** The database's side a statement needs (nodeSqlite.ts). */
export interface NodeDatabaseCore {
  readonly connection: SqliteConnection;
  /** Whether the statement `stmt` is still prepared (a closed database finalized its statements). */
  live(stmt: number): boolean;
  /** Runs `work`, SQLite's failure thrown as node:sqlite throws it. */
  translated<T>(work: () => T): T;
}

export interface StatementOptions {
  readBigInts: boolean;
  returnArrays: boolean;
  allowBareNamedParameters: boolean;
  allowUnknownNamedParameters: boolean;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export class StatementSync {
  #db: NodeDatabaseCore;
  #stmt: number;
  #source: string;
  #options: StatementOptions;
  /** Bare names (`id`) to the parameter's full name (`$id`), made at the first named binding. */
  #bare: Map<string, string> | undefined;

  /** Made by DatabaseSync.prepare only. */
  constructor(db: NodeDatabaseCore, stmt: number, source: string, options: StatementOptions) {
    this.#db = db;
    this.#stmt = stmt;
    this.#source = source;
    this.#options = { ...options };
  }

  get sourceSQL(): string {
    this.#check();
    return this.#source;
  }

  get expandedSQL(): never {
    return refuseNodeSqlite('statement.expandedSQL');
  }

  columns(): never {
    return refuseNodeSqlite('statement.columns()');
  }

  setReadBigInts(enabled: unknown): void {
    this.#options.readBigInts = this.#flag(enabled, 'readBigInts');
  }

  setReturnArrays(enabled: unknown): void {
    this.#options.returnArrays = this.#flag(enabled, 'returnArrays');
  }

  setAllowBareNamedParameters(enabled: unknown): void {
    this.#options.allowBareNamedParameters = this.#flag(enabled, 'allowBareNamedParameters');
  }

  setAllowUnknownNamedParameters(enabled: unknown): void {
    this.#options.allowUnknownNamedParameters = this.#flag(enabled, 'allowUnknownNamedParameters');
  }

  #flag(value: unknown, name: string): boolean {
    this.#check();
    if (typeof value !== 'boolean') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be a boolean.`);
    return value;
  }

  #check(): void {
    if (!this.#db.live(this.#stmt)) throw finalized();
  }

  /** Binds the arguments as Node's StatementSync::BindParams does. */
  #bind(params: readonly unknown[]): void {
    const conn = this.#db.connection;
    const stmt = this.#stmt;
    conn.reset(stmt);
    conn.clearBindings(stmt);
    let anonStart = 0;
    const first = params[0];
    if (typeof first === 'object' && first !== null && !ArrayBuffer.isView(first)) {
      anonStart = 1;
      const bare = this.#options.allowBareNamedParameters ? this.#bareNames() : undefined;
      for (const key of Object.getOwnPropertyNames(first)) {
        let index = conn.paramIndex(stmt, key);
        if (index === 0 && bare !== undefined) {
          const full = bare.get(key);
          if (full !== undefined) index = conn.paramIndex(stmt, full);
        }
        if (index === 0) {
          if (this.#options.allowUnknownNamedParameters) continue;
          throw nodeError(Error, 'ERR_INVALID_STATE', `Unknown named parameter '${key}'`);
        }
        this.#bindValue(index, (first as Record<string, unknown>)[key]);
      }
    }
    let anon = 1;
    for (let i = anonStart; i < params.length; i++) {
      // Named parameters are skipped; numbered ones (?1) are positions.
      while (conn.paramName(stmt, anon)?.startsWith('?') === false) anon++;
      this.#bindValue(anon, params[i]);
      anon++;
    }
  }

  #bareNames(): Map<string, string> {
    if (this.#bare !== undefined) return this.#bare;
    const conn = this.#db.connection;
    const bare = new Map<string, string>();
    for (let i = 1; i <= conn.paramCount(this.#stmt); i++) {
      const full = conn.paramName(this.#stmt, i);
      if (full === undefined) continue;
      const name = full.slice(1);
      const existing = bare.get(name);
      if (existing !== undefined && existing !== full) throw nodeError(Error, 'ERR_INVALID_STATE', `Cannot create bare named parameter '${name}' because of conflicting names '${existing}' and '${full}'.`);
      bare.set(name, full);
    }
    this.#bare = bare;
    return bare;
  }

  #bindValue(index: number, value: unknown): void {
    let bindable: null | number | bigint | string | Uint8Array;
    if (value === null) bindable = null;
    else if (typeof value === 'boolean' && NODE_MAJOR >= 24) bindable = value ? 1n : 0n;
    else if (typeof value === 'number' || typeof value === 'string') bindable = value;
    else if (typeof value === 'bigint') {
      if (BigInt.asIntN(64, value) !== value) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', 'BigInt value is too large to bind.');
      bindable = value;
    } else if (ArrayBuffer.isView(value)) bindable = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    else throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Provided value cannot be bound to SQLite parameter ${index}.`);
    this.#db.translated(() => this.#db.connection.bind(this.#stmt, index, bindable));
  }

  #value(index: number): unknown {
    const conn = this.#db.connection;
    switch (conn.columnType(this.#stmt, index)) {
      case TYPE.INTEGER: {
        const value = conn.columnInt64(this.#stmt, index);
        if (this.#options.readBigInts) return value;
        if (value > MAX_SAFE || value < -MAX_SAFE) throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `Value is too large to be represented as a JavaScript number: ${value}`);
        return Number(value);
      }
      case TYPE.FLOAT:
        return conn.columnDouble(this.#stmt, index);
      case TYPE.TEXT:
        return conn.columnText(this.#stmt, index);
      case TYPE.BLOB:
        return new Uint8Array(conn.columnBlob(this.#stmt, index));
      default:
        return null;
    }
  }

  #row(): unknown {
    const conn = this.#db.connection;
    const columns = conn.columnCount(this.#stmt);
    if (this.#options.returnArrays) return Array.from({ length: columns }, (_, i) => this.#value(i));
    const row = Object.create(null) as Record<string, unknown>;
    for (let i = 0; i < columns; i++) row[conn.columnName(this.#stmt, i)] = this.#value(i);
    return row;
  }

  /** One execution: the parameters bound, `work` run, the statement reset after. */
  #execute<T>(params: readonly unknown[], work: () => T): T {
    this.#check();
    this.#bind(params);
    try {
      return this.#db.translated(work);
    } finally {
      this.#db.connection.reset(this.#stmt);
    }
  }

  #step(): boolean {
    return this.#db.connection.step(this.#stmt) === SQLITE_ROW;
  }

  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.#execute(params, () => {
      while (this.#step());
      const conn = this.#db.connection;
      const changes = conn.changes();
      const id = conn.lastInsertRowid();
      const [c, l] = this.#options.readBigInts ? [BigInt(changes), id] : [changes, Number(id)];
      // Node 22 names lastInsertRowid first; 24, changes.
      return NODE_MAJOR >= 24 ? { changes: c, lastInsertRowid: l } : ({ lastInsertRowid: l, changes: c } as { changes: number | bigint; lastInsertRowid: number | bigint });
    });
  }

  get(...params: unknown[]): unknown {
    return this.#execute(params, () => (this.#step() ? this.#row() : undefined));
  }

  all(...params: unknown[]): unknown[] {
    return this.#execute(params, () => {
      const rows: unknown[] = [];
      while (this.#step()) rows.push(this.#row());
      return rows;
    });
  }

  iterate(...params: unknown[]): Iterator<unknown> {
    this.#check();
    this.#bind(params);
    let done = false;
    // Node's results are null-prototype objects.
    const result = (isDone: boolean, value: unknown): IteratorResult<unknown> => Object.assign(Object.create(null) as object, { done: isDone, value }) as IteratorResult<unknown>;
    const finish = (): IteratorResult<unknown> => {
      if (!done && this.#db.live(this.#stmt)) this.#db.connection.reset(this.#stmt);
      done = true;
      return result(true, null);
    };
    const next = (): IteratorResult<unknown> => {
      if (done) return result(true, null);
      this.#check();
      const row = this.#db.translated(() => (this.#step() ? { value: this.#row() } : undefined));
      return row === undefined ? finish() : result(false, row.value);
    };
    // An iterator as Node's StatementSyncIterator is: Iterator.prototype's helpers, next() and return().
    const iteratorProto = (globalThis as { Iterator?: { prototype: object } }).Iterator?.prototype ?? Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object;
    const proto = Object.create(iteratorProto) as Record<string, unknown>;
    Object.defineProperties(proto, { next: { value: next, writable: true, configurable: true }, return: { value: finish, writable: true, configurable: true } });
    return Object.create(proto) as Iterator<unknown>;
  }
}
