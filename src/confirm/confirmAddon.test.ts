/**
 * durasim confirm when the real worker cannot load the native better-sqlite3 (a binary built for
 * another Node's ABI: CI's Node 22 and 24 after `npm ci` on Node 20, or a Node switched with nvm
 * without a rebuild): "cannot confirm" (exit 2), naming the module, the binary's ABI and this
 * Node's, and the fix — found at the first worker's boot, before any real step. Before, the journal
 * ran on and its failed open was read as "diverged" (exit 6, "a defect of durasim"). The load is made
 * to fail on any Node by a preload in the real workers (properties/fixtures/confirm/unloadableAddon.cjs,
 * through the scenario's environment, which the real workers get as their own); the real binary's
 * failure on Node 22 and 24 is confirmSqlite.test.ts's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '../cli/main.js';

const ROOT = resolve(import.meta.dirname, '../..');
const JOURNAL = join(ROOT, 'examples/libraries/better-sqlite3/wal-normal.ts');
const PRELOAD = join(ROOT, 'properties/fixtures/confirm/unloadableAddon.cjs');
const BINARY = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-addon-'));

/** The WAL/NORMAL counterexample of `check --seed 1` (confirmSqlite.test.ts), the real workers' load of the binary failing as `mode` says. */
async function confirmUnloadable(mode: string): Promise<{ code: number; out: string }> {
  const file = join(dir, `${mode.replace(/\W/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({
    format: 'durasim.scenario',
    version: 3,
    task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] },
    files: { 'notes.md': '# Notes\n' },
    service: { resources: { config: 'v1' } },
    environment: { NODE_OPTIONS: `--require ${PRELOAD}`, UNLOADABLE_ADDON: mode },
  }));
  const out: string[] = [];
  const code = await main(['confirm', file, '--journal', JOURNAL], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

test('a binary built for another Node\'s ABI: cannot confirm, exit 2, naming the module, both ABIs and `npm rebuild better-sqlite3`; no real step taken', async () => {
  const { code, out } = await confirmUnloadable('other-abi');
  const [built, node] = process.versions.modules === '115' ? ['127', '22'] : ['115', '20'];
  expect(out).toContain(`cannot confirm: Failed to load the native better-sqlite3 in confirm's real worker: its binary ${BINARY} was built for Node ${node} (NODE_MODULE_VERSION ${built}), and this Node, ${process.version}, needs NODE_MODULE_VERSION ${process.versions.modules}: no real process can open the journal's database, so the finding is neither confirmed nor refuted. Run \`npm rebuild better-sqlite3\` with this Node (or confirm with Node ${node}), then confirm again.`);
  // Stopped at the first worker's boot: no real run judged, no verdict about the finding.
  expect(out).not.toMatch(/^real \(/m);
  expect(out).not.toMatch(/^verdict: /m);
  expect(out).not.toMatch(/diverged|not reproduced/);
  expect(code).toBe(2);
});

test('a binary that is no shared object (Node\'s real dlopen fails it): cannot confirm, exit 2, with Node\'s words and the fix', async () => {
  const standIn = join(dir, 'better_sqlite3.node');
  writeFileSync(standIn, 'not a shared object: a binary cut short or built for another machine\n'.repeat(4));
  const { code, out } = await confirmUnloadable(standIn);
  expect(out).toContain(`cannot confirm: Failed to load the native better-sqlite3 in confirm's real worker: it does not load on this Node, ${process.version} (NODE_MODULE_VERSION ${process.versions.modules}): ${standIn}: invalid ELF header; no real process can open the journal's database, so the finding is neither confirmed nor refuted. Run \`npm rebuild better-sqlite3\` with this Node, then confirm again.`);
  expect(out).not.toMatch(/^real \(/m);
  expect(out).not.toMatch(/^verdict: /m);
  expect(code).toBe(2);
});
