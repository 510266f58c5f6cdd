/**
 * node:sqlite's errors, as Node throws them: SQLite's failures as an Error with `code`
 * ERR_SQLITE_ERROR, `errcode` (the extended result code) and `errstr` (its English text); misuse
 * as Node's own errors (a TypeError, RangeError or Error with its ERR_* code). And the refusal of
 * what durasim does not serve of it, by name.
 */
import { DurasimError } from '../../model/contract/failure.js';

/** The Node line the thread runs on: node:sqlite differs a little between 22 and 24 (nodeSqlite.ts says where). */
export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** One of Node's own errors: `Kind` with its message and its ERR_* code. */
export function nodeError(Kind: ErrorConstructor | TypeErrorConstructor | RangeErrorConstructor, code: string, message: string): Error {
  const error = new Kind(message);
  Object.defineProperty(error, 'code', { value: code, writable: true, enumerable: true, configurable: true });
  return error;
}

/** SQLite's failure as node:sqlite throws it. */
export function sqliteError(message: string, errcode: number, errstr: string): Error {
  const error = new Error(message);
  for (const [key, value] of [['code', 'ERR_SQLITE_ERROR'], ['errcode', errcode], ['errstr', errstr]] as const) Object.defineProperty(error, key, { value, writable: true, enumerable: true, configurable: true });
  return error;
}

export const notOpen = (): Error => nodeError(Error, 'ERR_INVALID_STATE', 'database is not open');
export const finalized = (): Error => nodeError(Error, 'ERR_INVALID_STATE', 'statement has been finalized');

/** The part of node:sqlite durasim does not serve, refused by name. */
export function refuseNodeSqlite(what: string): never {
  throw new DurasimError(
    'run the journal under simulation',
    `node:sqlite's ${what} is not served by durasim's SQLite`,
    'Use what is served — new DatabaseSync(path, options), exec, prepare and its statements (run, get, all, iterate, setReadBigInts, setReturnArrays, setAllowBareNamedParameters, setAllowUnknownNamedParameters, sourceSQL), open, close, isOpen, isTransaction — listed in docs/sqlite.md',
  );
}
