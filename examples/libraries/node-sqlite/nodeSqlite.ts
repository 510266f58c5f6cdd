/**
 * Whether Node has node:sqlite (22.5 and later; 22.13 and later without a flag): its tests skip
 * on Node 20, saying so. The served one is tested on CI's Node 22 and 24 stages (.ci/run).
 */
import { isBuiltin } from 'node:module';

/** What the tests and journals use of node:sqlite (Node 20's @types/node has no types for it). */
export interface StatementSyncLike {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): Iterator<unknown> & Iterable<unknown>;
  setReadBigInts(enabled: boolean): void;
  setAllowBareNamedParameters(enabled: boolean): void;
  setAllowUnknownNamedParameters(enabled: boolean): void;
  readonly sourceSQL: string;
}
export interface DatabaseSyncLike {
  exec(sql: string): void;
  prepare(sql: string): StatementSyncLike;
  open(): void;
  close(): void;
  readonly isOpen: boolean;
  readonly isTransaction: boolean;
}
export interface NodeSqlite {
  DatabaseSync: new (path: string, options?: Record<string, unknown>) => DatabaseSyncLike;
}

/** Why node:sqlite cannot be tested on this Node, or undefined when it can. */
export function nodeSqliteMissing(): string | undefined {
  if (!isBuiltin('node:sqlite')) return `Node ${process.version} has no node:sqlite (Node 22.5 and later have it): the served DatabaseSync is tested on CI's Node 22 and 24 stages`;
  return undefined;
}
