/**
 * node:sqlite's types, for the examples here: Node 20's @types/node (the one this repository
 * builds with) has none. Only what the journals use.
 */
declare module 'node:sqlite' {
  export interface StatementSync {
    run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  }
  export class DatabaseSync {
    constructor(path: string, options?: { readOnly?: boolean; timeout?: number; open?: boolean });
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    close(): void;
    readonly isTransaction: boolean;
  }
}
