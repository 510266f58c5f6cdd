/** SQLite's result codes by name, as better-sqlite3 names them in SqliteError.code (sqlite3.h: an extended code is its primary code | n << 8). */
const PRIMARY = ['OK', 'ERROR', 'INTERNAL', 'PERM', 'ABORT', 'BUSY', 'LOCKED', 'NOMEM', 'READONLY', 'INTERRUPT', 'IOERR', 'CORRUPT', 'NOTFOUND', 'FULL', 'CANTOPEN', 'PROTOCOL', 'EMPTY', 'SCHEMA', 'TOOBIG', 'CONSTRAINT', 'MISMATCH', 'MISUSE', 'NOLFS', 'AUTH', 'FORMAT', 'RANGE', 'NOTADB', 'NOTICE', 'WARNING'] as const;

/** The extended codes of each primary code, by their n (1, 2, …; an empty name skips an n). */
const EXTENDED: Partial<Record<(typeof PRIMARY)[number], string[]>> = {
  ERROR: ['MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT'],
  IOERR: ['READ', 'SHORT_READ', 'WRITE', 'FSYNC', 'DIR_FSYNC', 'TRUNCATE', 'FSTAT', 'UNLOCK', 'RDLOCK', 'DELETE', 'BLOCKED', 'NOMEM', 'ACCESS', 'CHECKRESERVEDLOCK', 'LOCK', 'CLOSE', 'DIR_CLOSE', 'SHMOPEN', 'SHMSIZE', 'SHMLOCK', 'SHMMAP', 'SEEK', 'DELETE_NOENT', 'MMAP', 'GETTEMPPATH', 'CONVPATH', 'VNODE', 'AUTH', 'BEGIN_ATOMIC', 'COMMIT_ATOMIC', 'ROLLBACK_ATOMIC', 'DATA', 'CORRUPTFS', 'IN_PAGE'],
  LOCKED: ['SHAREDCACHE', 'VTAB'],
  BUSY: ['RECOVERY', 'SNAPSHOT', 'TIMEOUT'],
  CANTOPEN: ['NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK'],
  CORRUPT: ['VTAB', 'SEQUENCE', 'INDEX'],
  READONLY: ['RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY'],
  ABORT: ['', 'ROLLBACK'],
  CONSTRAINT: ['CHECK', 'COMMITHOOK', 'FOREIGNKEY', 'FUNCTION', 'NOTNULL', 'PRIMARYKEY', 'TRIGGER', 'UNIQUE', 'VTAB', 'ROWID', 'PINNED', 'DATATYPE'],
  NOTICE: ['RECOVER_WAL', 'RECOVER_ROLLBACK', 'RBU'],
  WARNING: ['AUTOINDEX'],
  AUTH: ['USER'],
  OK: ['LOAD_PERMANENTLY', 'SYMLINK'],
};

const NAMES = new Map<number, string>();
PRIMARY.forEach((name, code) => {
  NAMES.set(code, `SQLITE_${name}`);
  (EXTENDED[name] ?? []).forEach((extended, n) => {
    if (extended !== '') NAMES.set(code | ((n + 1) << 8), `SQLITE_${name}_${extended}`);
  });
});

/** The name of result code `code` (SQLITE_CONSTRAINT_UNIQUE), or better-sqlite3's name for an unknown one. */
export function resultCodeName(code: number): string {
  return NAMES.get(code) ?? `UNKNOWN_SQLITE_ERROR_${code}`;
}
