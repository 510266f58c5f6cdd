/**
 * better-sqlite3's Statement, served: run, get, all, iterate, pluck, raw, safeIntegers, bind,
 * columns, and its properties (source, reader, readonly, busy, database), with better-sqlite3's
 * binding rules (numbers as doubles, bigints as int64, strings, Buffers and Uint8Arrays, null and
 * undefined; an array's values by position, a plain object's by name) and its errors, word for
 * word. expand() is refused by name (docs/sqlite.md).
 */
import { refuseUnserved, type DatabaseCore } from './served.js';
import { SQLITE_ROW, TYPE, type SqliteConnection } from './connection.js';

type Bindable = null | number | bigint | string | Uint8Array;

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

export class Statement {
  readonly source: string;
  readonly reader: boolean;
  readonly readonly: boolean;
  busy = false;
  #db: DatabaseCore;
  #conn: SqliteConnection;
  #stmt: number;
  #pluck = false;
  #raw = false;
  #safe: boolean;
  #bound = false;

  /** Made by Database.prepare only; a pragma's statement returns data even when it has no column (better-sqlite3's pragma mode). */
  constructor(db: DatabaseCore, source: string, stmt: number, pragma = false) {
    this.#db = db;
    this.#conn = db.connection;
    this.#stmt = stmt;
    this.source = source;
    this.reader = pragma || this.#conn.columnCount(stmt) > 0;
    this.readonly = this.#conn.readonly(stmt);
    this.#safe = db.safeIntegersDefault;
  }

  get database(): unknown {
    return this.#db.facade;
  }

  pluck(toggle = true): this {
    if (!this.reader) throw new TypeError('The pluck() method is only for statements that return data');
    this.#pluck = toggle;
    if (toggle) this.#raw = false;
    return this;
  }

  raw(toggle = true): this {
    if (!this.reader) throw new TypeError('The raw() method is only for statements that return data');
    this.#raw = toggle;
    if (toggle) this.#pluck = false;
    return this;
  }

  expand(): never {
    return refuseUnserved('stmt.expand()');
  }

  safeIntegers(toggle = true): this {
    this.#safe = toggle;
    return this;
  }

  columns(): { name: string; column: null; table: null; database: null; type: null }[] {
    if (!this.reader) throw new TypeError('The columns() method is only for statements that return data');
    const out = [];
    for (let i = 0; i < this.#conn.columnCount(this.#stmt); i++) out.push({ name: this.#conn.columnName(this.#stmt, i), column: null, table: null, database: null, type: null });
    return out;
  }

  bind(...params: unknown[]): this {
    if (this.#bound) throw new TypeError('The bind() method can only be invoked once per statement object');
    this.#db.requireOpen();
    this.#bind(params);
    this.#bound = true;
    return this;
  }

  /** Binds the arguments as better-sqlite3's Binder does. */
  #bind(params: readonly unknown[]): void {
    const conn = this.#conn;
    const stmt = this.#stmt;
    const count = conn.paramCount(stmt);
    conn.clearBindings(stmt);
    let anon = 0;
    const nextAnon = (): number => {
      do anon++;
      while (anon <= count && conn.paramName(stmt, anon) !== undefined);
      return anon;
    };
    const named = (): [string, number][] => {
      const out: [string, number][] = [];
      for (let i = 1; i <= count; i++) {
        const name = conn.paramName(stmt, i);
        if (name !== undefined && !name.startsWith('?')) out.push([name.slice(1), i]);
      }
      return out;
    };
    let bound = 0;
    let boundObject = false;
    const value = (v: unknown, index: number): void => {
      if (index > count) throw new RangeError('Too many parameter values were provided');
      conn.bind(stmt, index, toBindable(v));
    };
    for (const arg of params) {
      if (Array.isArray(arg)) {
        for (const item of arg) value(item, nextAnon());
        bound += arg.length;
        continue;
      }
      if (typeof arg === 'object' && arg !== null && !(arg instanceof Uint8Array) && (isPlainObject(arg) || named().length > 0)) {
        if (!isPlainObject(arg)) throw new TypeError('Named parameters can only be passed within plain objects');
        if (boundObject) throw new TypeError('You cannot specify named parameters in two different objects');
        boundObject = true;
        for (const [name, index] of named()) {
          if (!Object.prototype.hasOwnProperty.call(arg, name)) throw new RangeError(`Missing named parameter "${name}"`);
          value((arg as Record<string, unknown>)[name], index);
          bound++;
        }
        continue;
      }
      value(arg, nextAnon());
      bound++;
    }
    if (bound < count) {
      if (!boundObject && named().length > 0) throw new TypeError('Missing named parameters');
      throw new RangeError('Too few parameter values were provided');
    }
    if (bound > count) throw new RangeError('Too many parameter values were provided');
  }

  /** What every execution checks and binds first (better-sqlite3's STATEMENT_START). */
  #start(params: readonly unknown[], returnsData: boolean): void {
    if (returnsData && !this.reader) throw new TypeError('This statement does not return data. Use run() instead');
    this.#db.requireOpen();
    this.#db.requireNotBusy();
    if (!this.#bound) this.#bind(params);
    else if (params.length > 0) throw new TypeError('This statement already has bound parameters');
    this.#db.log(this.source);
  }

  #value(index: number): unknown {
    const conn = this.#conn;
    switch (conn.columnType(this.#stmt, index)) {
      case TYPE.INTEGER:
        return this.#safe ? conn.columnInt64(this.#stmt, index) : conn.columnDouble(this.#stmt, index);
      case TYPE.FLOAT:
        return conn.columnDouble(this.#stmt, index);
      case TYPE.TEXT:
        return conn.columnText(this.#stmt, index);
      case TYPE.BLOB:
        return conn.columnBlob(this.#stmt, index);
      default:
        return null;
    }
  }

  #row(): unknown {
    if (this.#pluck) return this.#value(0);
    const columns = this.#conn.columnCount(this.#stmt);
    if (this.#raw) return Array.from({ length: columns }, (_, i) => this.#value(i));
    const row: Record<string, unknown> = {};
    for (let i = 0; i < columns; i++) row[this.#conn.columnName(this.#stmt, i)] = this.#value(i);
    return row;
  }

  /** Runs `work` as one execution: the database busy meanwhile, the statement reset after, SQLite's failure as a SqliteError. */
  #execute<T>(work: () => T): T {
    this.#db.busy = true;
    try {
      return this.#db.translated(work);
    } finally {
      this.#db.busy = false;
      this.#conn.reset(this.#stmt);
    }
  }

  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    this.#start(params, false);
    return this.#execute(() => {
      const before = this.#db.totalChanges();
      while (this.#conn.step(this.#stmt) === SQLITE_ROW);
      const changes = this.#db.totalChanges() === before ? 0 : this.#conn.changes();
      const id = this.#conn.lastInsertRowid();
      return { changes, lastInsertRowid: this.#safe ? id : Number(id) };
    });
  }

  get(...params: unknown[]): unknown {
    this.#start(params, true);
    return this.#execute(() => (this.#conn.step(this.#stmt) === SQLITE_ROW ? this.#row() : undefined));
  }

  all(...params: unknown[]): unknown[] {
    this.#start(params, true);
    return this.#execute(() => {
      const rows: unknown[] = [];
      while (this.#conn.step(this.#stmt) === SQLITE_ROW) rows.push(this.#row());
      return rows;
    });
  }

  *iterate(...params: unknown[]): Generator<unknown, void, undefined> {
    this.#start(params, true);
    // better-sqlite3 holds the connection while an iterator is open: another statement meanwhile is refused.
    let done = false;
    try {
      while (!done) {
        this.#db.iterating++;
        let row: unknown;
        try {
          done = this.#db.translated(() => this.#conn.step(this.#stmt) !== SQLITE_ROW);
          if (!done) row = this.#row();
        } finally {
          this.#db.iterating--;
        }
        if (!done) yield row;
      }
    } finally {
      this.#conn.reset(this.#stmt);
    }
  }
}

/** A JavaScript value as better-sqlite3 binds it. */
function toBindable(value: unknown): Bindable {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') {
    if (BigInt.asIntN(64, value) !== value) throw new RangeError('The bound string, buffer, or bigint is too big');
    return value;
  }
  if (value instanceof Uint8Array) return value;
  throw new TypeError('SQLite3 can only bind numbers, strings, bigints, buffers, and null');
}
