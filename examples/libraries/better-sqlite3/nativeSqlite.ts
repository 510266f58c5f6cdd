/**
 * Whether the native better-sqlite3 loads on the Node running the tests. `npm ci` builds (or
 * fetches) its binary for the Node that ran it — Node 20 here and in CI — and a binary is tied to
 * its Node's ABI (NODE_MODULE_VERSION): on CI's Node 22 and 24 stages it cannot load. The tests
 * that hold the served module to the native one skip there, saying so; the served module
 * (WebAssembly) runs on every Node and is tested on each.
 */
import { createRequire } from 'node:module';

/** Why the native better-sqlite3 cannot load on this Node, or undefined when it loads. */
export function nativeSqliteMissing(): string | undefined {
  try {
    const Native = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => { close(): void };
    new Native(':memory:').close();
    return undefined;
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    return `the native better-sqlite3 does not load on Node ${process.version} (NODE_MODULE_VERSION ${process.versions.modules}): npm ci built it for the Node that ran it (${first.slice(0, 160)})`;
  }
}
