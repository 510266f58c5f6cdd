/**
 * SQLite, served (simulator/sqlite/): a better-sqlite3 Database or a node:sqlite DatabaseSync a
 * journal opens in a simulated process is handed the process's way onto the simulated machine — a
 * connection on its own SQLite with the machine's VFS — and runs every page read and write, sync
 * and delete as a step of that process.
 */
import { SqliteConnection } from '../../sqlite/connection.js';
import type { SqliteHost } from '../../sqlite/database.js';
import { servedDatabaseSync } from '../../sqlite/nodeSqlite.js';
import { outsideTurn } from '../../sandbox/ambientGuard.js';
import type { ServeContext, Served } from './serveContext.js';

const hostOf = (ctx: ServeContext): SqliteHost => ({
  connect: () => SqliteConnection.ofProcess(ctx.world, ctx.proc),
  resolve: (path) => ctx.world.disk.resolve(path),
  // memfs's bookkeeping is the world's own work, not the journal's (no clock read of its own).
  folderExists: (path) => outsideTurn(() => ctx.world.disk.exists(path) && ctx.world.disk.statOf(path).isDirectory()),
});

export const SQLITE_SERVED: [string, Served][] = [
  ['better-sqlite3.Database', (ctx) => hostOf(ctx)],
  // node:sqlite (Node 22.5 and later): the served DatabaseSync itself (sqlite/nodeSqlite.ts).
  ['sqlite.DatabaseSync', (ctx, args, _thisArg, newTarget) => servedDatabaseSync(hostOf(ctx), args, newTarget)],
  // Node's own answer: "Illegal constructor" (a statement comes from prepare()).
  ['sqlite.StatementSync', (_ctx, _args, _thisArg, _newTarget, real) => (real as () => unknown)()],
];
