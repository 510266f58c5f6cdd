/**
 * Two simulated processes on one database file meet SQLite's locking as two real ones do (issue 53
 * item 2): a writer that holds BEGIN IMMEDIATE across an await keeps the other's BEGIN IMMEDIATE
 * out with SQLITE_BUSY (its busy timeout cannot wait: see docs/sqlite.md), a reader still reads
 * the last commit, and once the first commits the second gets in. The same sequence on two native
 * connections gives the same answers.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import Database from '../../../simulator/sqlite/database.js';
import { simulate } from '../../../simulator/simulate.js';
import { baseScenario } from '../../../src/arbitraries.js';
import { nativeSqliteMissing } from './nativeSqlite.js';

type Db = InstanceType<typeof Database>;

const attempt = (work: () => unknown): unknown => {
  try {
    work();
    return 'ok';
  } catch (error) {
    return { error: (error as Error).message, code: (error as { code?: string }).code };
  }
};

/** The first writer's steps, and the second's, in the order the test interleaves them. */
const first = {
  begin: (db: Db) => {
    db.exec('CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, owner TEXT)');
    db.exec('BEGIN IMMEDIATE');
    db.prepare('INSERT INTO claims VALUES (?, ?)').run('post-a', 'first');
  },
  commit: (db: Db) => db.exec('COMMIT'),
};
const second = {
  blocked: (db: Db) => ({ write: attempt(() => db.exec('BEGIN IMMEDIATE')), read: db.prepare('SELECT owner FROM claims WHERE key = ?').pluck().get('post-a') ?? null, inTransaction: db.inTransaction }),
  after: (db: Db) => ({ write: attempt(() => db.exec('BEGIN IMMEDIATE')), read: db.prepare('SELECT owner FROM claims WHERE key = ?').pluck().get('post-a') ?? null }),
};

/** On a Node whose ABI the native binary was not built for (CI's Node 22 and 24 stages), the comparison cannot run: said so, and skipped. */
const missing = nativeSqliteMissing();
if (missing !== undefined) test.skip(`skipped: ${missing}`, () => {});

test.skipIf(missing !== undefined)('a second writer gets SQLITE_BUSY while the first holds its transaction, as with two native connections', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'durasim-bs3-locks-'));
  const a = new Database(join(folder, 'claims.db'), { timeout: 0 });
  const b = new Database(join(folder, 'claims.db'), { timeout: 0 });
  first.begin(a);
  const nativeBlocked = second.blocked(b);
  first.commit(a);
  const native = { blocked: nativeBlocked, after: second.after(b) };

  const simulated: Record<string, unknown> = {};
  const result = await simulate(
    {
      name: 'two-writers',
      async run(env) {
        // The first worker (pid 1000) writes and waits; the duplicate (pid 2000) starts meanwhile.
        const db = new Database('claims.db');
        if (process.pid === 1000) {
          first.begin(db);
          await env.clock.sleep(1000);
          first.commit(db);
        } else {
          simulated.blocked = second.blocked(db);
          await env.clock.sleep(2000);
          simulated.after = second.after(db);
        }
      },
      inspect: () => ({}),
    },
    { ...baseScenario(), faults: [{ kind: 'duplicate-delivery', atStep: 1 }] },
  );
  expect(result.escapes).toEqual([]);
  expect(simulated).toEqual(native);
  expect(native.blocked).toEqual({ write: { error: 'database is locked', code: 'SQLITE_BUSY' }, read: null, inTransaction: false });
});
