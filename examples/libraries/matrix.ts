/**
 * The compatibility matrix: journals built on the npm libraries journals are built on, each used as
 * its README says (examples/libraries/<library>/journal.ts), the verdict `durasim check` gives each
 * at a fixed budget and seed, why that verdict is right, and what `durasim confirm` says of the
 * counterexample in real processes (from their real system calls, under strace). One table, read
 * by the script that writes docs/compatibility.md and runs every row (matrixMain.ts; `--verify`, a
 * CI stage, fails when a run disagrees with it) and by matrix.test.ts (the doc is the table, rendered).
 */

export interface LibraryCase {
  /** The folder under examples/libraries, and the npm package unless `package` names it. */
  library: string;
  /** The npm package, when it is not the folder's name (a scoped one). */
  package?: string;
  /** The journal's module in the folder, when not `journal` (a library with several rows: its settings differ). */
  journal?: string;
  /** Why `confirm` does not run this row's finding in real processes (the table says so), when it cannot. */
  unconfirmed?: string;
  /** check's fault families, when not its default (every family, concurrent calls among them). */
  faults?: string;
  /** Why this row's check runs without its single-fault sweep (`--no-sweep`), when it does: its drawn runs only. */
  noSweep?: string;
  /** What the journal keeps with it. */
  use: string;
  /** check's budget and seed for this row. */
  runs: number;
  seed: number;
  /** check's exit code, and for a finding the first invariant broken and the durability step the judge names missing. */
  exit: 0 | 1 | 3;
  invariant?: string;
  missing?: 'file-fsync' | 'folder-fsync';
  /** Why the verdict is right. */
  why: string;
}

/**
 * Why the clean and the two-worker SQLite rows run their drawn runs only: a SQLite commit is some 20
 * steps, so the sweep of the example journal's fault-free run is 848 crash points, 7,150 runs, about
 * 450 s of CPU (measured 2026-12-06, two workers, load ~15: 1,149 s wall) — the compatibility stage
 * would take over an hour. Issue 53's cost work (docs/sqlite.md) brought it to 4,838 runs and about
 * 110 s of CPU (a reused SQLite per thread; crash points that cannot differ swept once), about 4
 * minutes of wall time a row on a busy machine: the rows could take it back. The I/O errors at
 * SQLite's VFS steps made it 5,331 runs (97 s of CPU with one worker against 89 s before them).
 */
const SQLITE_NO_SWEEP = "a SQLite journal's single-fault sweep is 848 crash points, ~5,330 runs, ~100 s of CPU on one worker (docs/sqlite.md)";

/** Why the two-worker SQLite row's finding is not run in real processes yet (docs/sqlite.md). */
const SQLITE_TWO_WORKERS_UNCONFIRMED = "not yet: its finding needs two restarted workers to take turns as the scenario's schedule orders them, and real processes take them as real time lets them (confirm of seed 1's counterexample: not reproduced, the workers part at worker step 4 and never meet on the lock) (docs/sqlite.md)";

export const LIBRARIES: readonly LibraryCase[] = [
  {
    library: 'lowdb',
    use: 'a `Low` database over a `JSONFile`: `db.data = …; await db.write()` (steno writes it)',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'file-fsync',
    why: 'steno writes a temp file and renames it over the old one with no fsync of either: the intent is in the page cache when the request leaves, and a power loss takes it (the file was never fsynced, nor its folder).',
  },
  {
    library: 'write-file-atomic',
    use: '`await writeFileAtomic(file, data)` (6.0.0: the last release whose engines include Node 20; 7 and 8 make the same calls)',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'folder-fsync',
    why: 'it fsyncs the temp file, gives it the old file\'s owner and mode (chown, chmod) and renames it — and never fsyncs the folder, so on ext4 the rename itself may not survive a power loss: the new state is gone though its bytes were fsynced.',
  },
  {
    library: 'atomically',
    use: '`await writeFile(file, data)`, `await readFile(file, \'utf8\')`',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'folder-fsync',
    why: 'as write-file-atomic: the temp file is fsynced, the rename is not made durable (no fsync of the folder).',
  },
  {
    library: 'jsonfile',
    use: '`await jsonfile.writeFile(file, obj)`, `await jsonfile.readFile(file)`',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'file-fsync',
    why: 'fs.writeFile in place: truncated, written, never fsynced — the intent is only in the page cache when the request leaves.',
  },
  {
    library: 'fs-extra',
    use: '`await fs.outputJson(file, obj)` (makes the folder), `await fs.readJson(file)`',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'file-fsync',
    why: 'it writes through jsonfile: the same unsynced in-place rewrite.',
  },
  {
    library: 'node-persist',
    use: '`await storage.init({ dir })`, `await storage.setItem(key, value)`, `await storage.getItem(key)`',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'file-fsync',
    why: 'every item is a file of its own, rewritten in place with fs.writeFile and never fsynced.',
  },
  {
    library: 'configstore',
    use: '`new Configstore(name, {}, { configPath })`, `config.all = …`',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'folder-fsync',
    why: 'it writes synchronously through atomically: the temp file fsynced, the rename never made durable.',
  },
  {
    library: 'proper-lockfile',
    use: '`const release = await lockfile.lock(file)` around every read and write of a state file the journal writes durably itself (temp file, fsync, rename, folder fsync)',
    runs: 500,
    seed: 1,
    exit: 0,
    why: 'the lock (a `<file>.lock` folder, kept fresh by touching its mtime on timers, taken over once stale) holds through kills, restarts and a second worker; with the writes made durable by the journal, nothing is lost or done twice.',
  },
  {
    library: 'node-idempotency',
    package: '@node-idempotency/core',
    faults: 'crash,disk,io,response,duplicate,user,service-restart,intent,store,failure,concurrent',
    use: "a server's journal: each call of `run()` is a request through `await idempotency.onRequest(req)` before the work and `await idempotency.onResponse(req, res)` after, on the README's `MemoryStorageAdapter`; the journal writes its state file durably itself (temp file, fsync, rename, folder fsync)",
    runs: 500,
    seed: 1,
    exit: 0,
    why: 'checked with every family and concurrent calls: a second call of `run()` in the process while the first is under way is refused by `onRequest` ("A request is outstanding for this Idempotency-Key"), one after it gets the stored response. Without the middleware the same journal sends twice at once (`single-flight`, the first run of `--faults concurrent --seed 1`: matrix.test.ts runs it). Its store lives in the process: a duplicate delivered to another process is held off by the journal\'s own lock file, not by the middleware, and a crash forgets every key (the fsynced state file answers for them). Its race once a key expires (`setIfNotExists` still sees the expired entry, `get` deletes it, and two retries both proceed) needs a request that outlasts the 24-hour TTL, beyond this budget\'s virtual time.',
  },
  {
    library: 'better-sqlite3',
    use: 'rollback journal with `synchronous=EXTRA`: one row per key, each save a `db.transaction(...).immediate(state)`; inspect() opens the database read-only',
    noSweep: SQLITE_NO_SWEEP,
    runs: 500,
    seed: 1,
    exit: 0,
    why: 'every commit fsyncs the journal (and, at its first sync, its folder), then the database, and — EXTRA\'s addition — the folder after the journal\'s deletion, the commit point: nothing committed is lost to a power loss, and after a crash SQLite\'s own recovery (the hot journal rolled back) gives inspect() the last commit.',
  },
  {
    library: 'better-sqlite3',
    journal: 'wal-full',
    use: 'WAL mode with `synchronous=FULL`, otherwise as above',
    faults: 'crash,disk,response,duplicate,user,service-restart,intent,store,failure,concurrent',
    noSweep: SQLITE_NO_SWEEP,
    runs: 500,
    seed: 1,
    exit: 0,
    why: 'every commit appends its frames to the WAL and fsyncs it (the WAL\'s first sync also fsyncs its folder, as os_unix.c does for a WAL opened with SQLITE_OPEN_CREATE); after a power loss SQLite replays the WAL up to its last valid commit. Checked without I/O errors: an EIO at the WAL\'s fsync (the default families, run 161 of seed 1; the single-fault sweep, left out here, finds it at its 535th run) fails the commit, but its frames, checksummed and in the page cache, are read back as committed by the next process\'s WAL recovery and are never durable (Linux marks the pages clean), so the next process records "dispatched" in a WAL whose durable image is cut short before it, and a power loss takes it (`write-ahead`; sqlite.test.ts pins it). SQLite goes on after a failed fsync (PostgreSQL stops since 2018); the rollback-journal row is checked with I/O errors and is clean.',
  },
  {
    library: 'better-sqlite3',
    journal: 'wal-normal',
    use: 'WAL mode with `synchronous=NORMAL`',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'file-fsync',
    why: 'a commit appends its frames to the WAL and fsyncs nothing (the WAL is synced only at a checkpoint), as SQLite\'s documentation says: the "dispatched" record committed before the send is in the page cache when the request leaves (`journal.db-wal: 24720 unsynced bytes`), and a power loss takes it.',
  },
  {
    library: 'better-sqlite3',
    journal: 'sync-off',
    use: 'rollback journal with `synchronous=OFF`',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    missing: 'file-fsync',
    why: 'SQLite never fsyncs: the database file, never synced, is in the page cache only when the request leaves.',
  },
  {
    library: 'better-sqlite3',
    journal: 'send-first',
    use: 'rollback journal with `synchronous=EXTRA`, "dispatched" recorded after the send',
    runs: 200,
    seed: 1,
    exit: 1,
    invariant: 'write-ahead',
    why: 'every commit is durable, but the request leaves before "dispatched" is committed: the durable history at its arrival is `[authorized]`, and a crash in between leaves a request the journal never knew it sent.',
  },
  {
    library: 'better-sqlite3',
    journal: 'no-immediate',
    use: 'two workers on one database: the task lease a row, checked and taken in a deferred `BEGIN` transaction that spans an await (`lease-immediate.ts`, with `BEGIN IMMEDIATE`, is clean)',
    noSweep: SQLITE_NO_SWEEP,
    runs: 1000,
    seed: 1,
    exit: 3,
    invariant: 'convergence',
    unconfirmed: SQLITE_TWO_WORKERS_UNCONFIRMED,
    why: 'both workers read the lease under a shared lock, and their upgrades to the write lock meet: each gets `SQLITE_BUSY` (a busy timeout cannot help an upgrade), rolls back, waits as long as the other and meets it again, until both give up and the publish stays `dispatched`. With `BEGIN IMMEDIATE` the second worker\'s BEGIN is refused while the first holds the lease transaction, and it gets in after.',
  },
];
