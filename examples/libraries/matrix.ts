/**
 * The compatibility matrix: journals built on the npm libraries journals are built on, each used as
 * its README says (examples/libraries/<library>/journal.ts), the verdict `durasim check` gives each
 * at a fixed budget and seed, why that verdict is right, and what `durasim confirm` says of the
 * counterexample in real processes (from their real system calls, under strace). One table, read
 * by the test that runs it (matrix.test.ts) and by the script that writes docs/compatibility.md
 * (matrixMain.ts) — the doc is the table, rendered; the test fails when a run disagrees with it.
 */

export interface LibraryCase {
  /** The folder under examples/libraries, and the npm package unless `package` names it. */
  library: string;
  /** The npm package, when it is not the folder's name (a scoped one). */
  package?: string;
  /** check's fault families, when not its default (every family, concurrent calls among them). */
  faults?: string;
  /** What the journal keeps with it. */
  use: string;
  /** check's budget and seed for this row. */
  runs: number;
  seed: number;
  /** check's exit code, and for a finding the first invariant broken and the durability step the judge names missing. */
  exit: 0 | 1;
  invariant?: string;
  missing?: 'file-fsync' | 'folder-fsync';
  /** Why the verdict is right. */
  why: string;
}

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
];
