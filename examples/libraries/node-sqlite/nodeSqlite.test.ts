/**
 * Journals on node:sqlite (issue 53 item 7), checked as the compatibility matrix checks a library's
 * (examples/libraries/matrix.ts), on the Node that runs the tests: node:sqlite exists from Node
 * 22.5, so on Node 20 (the matrix's CI stage) they skip, saying so; CI's Node 22 and 24 stages run
 * them (.ci/run's NODE_LINES_SUITE). The single-fault sweep is not their subject (--no-sweep).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { nodeSqliteMissing } from './nodeSqlite.js';

async function check(journal: string, runs: number): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'durasim-node-sqlite-'));
  const out: string[] = [];
  const code = await main(['check', '--no-sweep', '--journal', join(import.meta.dirname, `${journal}.ts`), '--runs', String(runs), '--seed', '1', '--workers', '1', '--report-dir', join(dir, 'report'), '--regressions', join(dir, 'regressions'), '--no-progress'], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

const missing = nodeSqliteMissing();
if (missing !== undefined) test.skip(`skipped: ${missing}`, () => {});

test.skipIf(missing !== undefined)('rollback journal with synchronous=EXTRA: clean at 300 runs, every fault family', async () => {
  const { code, out } = await check('journal', 300);
  expect(code, out).toBe(0);
  expect(out).toContain('300 runs in');
  expect(out).toContain('faults crash,disk,io,response,duplicate,user,service-restart,intent,store,failure,concurrent');
});

test.skipIf(missing !== undefined)('WAL with synchronous=NORMAL: the dispatched record only in the WAL\'s page cache when the request leaves, found', async () => {
  const { code, out } = await check('wal-normal', 200);
  expect(code, out).toBe(1);
  expect(out).toMatch(/write-ahead \[post-a\] at #\d+: expected durable authorized and dispatched with digest [0-9a-f]+ before request #0 arrived; actual no durable record of the key \(only in the page cache: a machine crash here would lose journal\.db-wal: \d+ unsynced bytes lost — fsync the file\)/);
});
