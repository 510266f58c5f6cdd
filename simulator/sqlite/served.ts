/**
 * What the served better-sqlite3's classes share: the database's side a statement needs, and the
 * refusal of what durasim does not serve (named, with what to use instead).
 */
import { DurasimError } from '../../model/contract/failure.js';
import type { SqliteConnection } from './connection.js';

/** The database as its statements see it. */
export interface DatabaseCore {
  readonly connection: SqliteConnection;
  /** The Database object the journal holds (stmt.database). */
  readonly facade: unknown;
  readonly safeIntegersDefault: boolean;
  busy: boolean;
  iterating: number;
  requireOpen(): void;
  requireNotBusy(): void;
  /** The verbose option's call, with the statement's source. */
  log(source: string): void;
  /** Runs `work`, SQLite's failure thrown as a SqliteError. */
  translated<T>(work: () => T): T;
  /** sqlite3_total_changes. */
  totalChanges(): number;
}

/** The part of better-sqlite3 durasim does not serve, refused by name. */
export function refuseUnserved(what: string): never {
  throw new DurasimError(
    'run the journal under simulation',
    `better-sqlite3's ${what} is not served by durasim's SQLite`,
    'Use what is served — new Database(file, { readonly, fileMustExist, timeout, verbose }), prepare and its statements (run, get, all, iterate, pluck, raw, safeIntegers, bind, columns), exec, pragma, transaction, defaultSafeIntegers, close — listed in docs/sqlite.md',
  );
}
