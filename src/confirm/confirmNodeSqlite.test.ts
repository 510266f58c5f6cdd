/**
 * durasim confirm of a journal on node:sqlite (Node 22.5 and later): the real workers run Node's own
 * SQLite (built into Node: no ABI to match), and inspect() in the confirming process is served on the
 * image it reads, as inside a simulation. Before, the confirming process — whose simulations run in
 * the pool's threads — had node:sqlite unguarded, so inspect()'s `new DatabaseSync('journal.db')`
 * opened the real class in durasim's own folder and threw ("unable to open database file"): every
 * image read as empty, WAL/NORMAL's finding "confirmed" with other violations than simulated, and
 * a clean journal's fault-free run broke write-ahead "for real". Skipped on Node 20 (no node:sqlite).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../cli/main.js';
import { nodeSqliteMissing } from '../../examples/libraries/node-sqlite/nodeSqlite.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLES = join(ROOT, 'examples/libraries/node-sqlite');
const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-node-sqlite-'));
/** The counterexample `check --journal examples/libraries/node-sqlite/wal-normal.ts --runs 200 --seed 1 --no-sweep` saves on Node 24: the fault-free run. */
const walNormalFinding = {
  format: 'durasim.scenario',
  version: 3,
  task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] },
};
const file = (name: string, value: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

async function confirm(scenario: string, journal: string): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['confirm', scenario, '--journal', join(EXAMPLES, journal)], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

const missing = nodeSqliteMissing();
if (missing !== undefined) test.skip(`skipped: ${missing}`, () => {});

describe.skipIf(missing !== undefined)('durasim confirm, a journal on node:sqlite', () => {
  test('WAL with synchronous=NORMAL, as check finds it: confirmed, the same violations — the WAL\'s frames unsynced when the request leaves', async () => {
    const { code, out } = await confirm(file('wal-normal.json', walNormalFinding), 'wal-normal.ts');
    expect(out).toMatch(/^real \(\d+ ms, 15 worker steps, \d+ system calls on the work folder traced\): write-ahead \[post-a\], no-state-skip \[post-a\], truthful-outcome \[post-a\]$/m);
    expect(out).toMatch(/^steps: the real processes took the simulation's 15 worker steps, in its order$/m);
    expect(out).toMatch(/^verdict: confirmed — the same violations in real processes$/m);
    expect(out).toContain('actual no durable record of the key (only in the page cache: a machine crash here would lose journal.db-wal: 24720 unsynced bytes lost — fsync the file)');
    expect(out).not.toContain('inspect() threw');
    expect(code).toBe(1);
  });

  test('the power loss after the send: the crash image built from the real calls has lost the WAL\'s frames; confirmed', async () => {
    const scenario = file('wal-normal-crash.json', { ...walNormalFinding, faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 0 }, when: 'after', mode: 'lose-unsynced' }] });
    const { code, out } = await confirm(scenario, 'wal-normal.ts');
    expect(out).toMatch(/^real disk after the crash: journal\.db-wal: 24720 unsynced bytes lost$/m);
    expect(out).toMatch(/^verdict: confirmed — the same violations in real processes$/m);
    expect(out).not.toContain('inspect() threw');
    expect(code).toBe(1);
  });

  test('the clean journal (rollback journal, synchronous=EXTRA), fault-free: both clean — its records read back from the real calls\' durable image', async () => {
    const { code, out } = await confirm(file('clean.json', walNormalFinding), 'journal.ts');
    expect(out).toMatch(/^simulated: no violation$/m);
    expect(out).toMatch(/^real \(\d+ ms, \d+ worker steps, \d+ system calls on the work folder traced\): no violation$/m);
    expect(out).toMatch(/^verdict: both clean/m);
    expect(out).not.toContain('inspect() threw');
    expect(code).toBe(0);
  });
});
