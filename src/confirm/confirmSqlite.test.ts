/**
 * durasim confirm of a SQLite journal (issue 53 item 3): the real, native better-sqlite3 runs in the
 * real workers under strace, its page writes, syncs and deletes rebuild the durable image on the
 * disk model, and inspect() reads that image through the served SQLite. The two worlds are compared
 * outside SQLite (sqliteSteps.ts). The WAL/NORMAL finding is confirmed from real calls, fault-free
 * as check finds it and with the power loss after the send; a real run that did not reach the
 * simulated state is never "confirmed"; a fault inside a SQLite call cannot be placed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../cli/main.js';
import { judge } from '../../model/judge.js';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { bundleJournal } from '../isolation/bundleJournal.js';
import { compileJournal } from '../isolation/journalInstances.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { confirmScenario, simulatedOf } from './confirmScenario.js';
import { nativeSqliteMissing } from '../../examples/libraries/better-sqlite3/nativeSqlite.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLES = join(ROOT, 'examples/libraries/better-sqlite3');
const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-sqlite-'));
/** The counterexample `check --journal examples/libraries/better-sqlite3/wal-normal.ts --runs 200 --seed 1` saves: the fault-free run. */
const walNormalFinding = {
  format: 'durasim.scenario',
  version: 3,
  task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] },
  files: { 'notes.md': '# Notes\n' },
  service: { resources: { config: 'v1' } },
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

/** On a Node whose ABI the native binary was not built for (CI's Node 22 and 24 stages), no real run can open the database: said so, and skipped. */
const missing = nativeSqliteMissing();
if (missing !== undefined) test.skip(`skipped: ${missing}`, () => {});

// There, confirm says so: "cannot confirm", never "diverged" or "not reproduced" (before, the journal
// ran on and its failed open was read as "diverged", exit 6). On a Node the binary loads on (Node 20
// here), confirmAddon.test.ts makes the load fail instead.
test.runIf(missing !== undefined)('on a Node the native binary was not built for: cannot confirm, exit 2, naming the binary\'s ABI, this Node\'s and `npm rebuild better-sqlite3`', async () => {
  const { code, out } = await confirm(file('wal-normal-abi.json', walNormalFinding), 'wal-normal.ts');
  expect(out).toMatch(new RegExp(`^cannot confirm: Failed to load the native better-sqlite3 in confirm's real worker: its binary \\S+/better_sqlite3\\.node was built for Node \\d+ \\(NODE_MODULE_VERSION \\d+\\), and this Node, ${process.version.replaceAll('.', '\\.')}, needs NODE_MODULE_VERSION ${process.versions.modules}: no real process can open the journal's database, so the finding is neither confirmed nor refuted\\. Run \`npm rebuild better-sqlite3\` with this Node \\(or confirm with Node \\d+\\), then confirm again\\.$`, 'm'));
  expect(out).not.toMatch(/^verdict: /m);
  expect(code).toBe(2);
});

describe.skipIf(missing !== undefined)('durasim confirm, a journal on better-sqlite3', () => {
  test('WAL with synchronous=NORMAL, as check finds it: confirmed from the native SQLite\'s real calls — the WAL\'s frames unsynced when the request leaves', async () => {
    const { code, out } = await confirm(file('wal-normal.json', walNormalFinding), 'wal-normal.ts');
    expect(out).toMatch(/^real \(\d+ ms, 15 worker steps, \d+ system calls on the work folder traced\): write-ahead \[post-a\], no-state-skip \[post-a\], truthful-outcome \[post-a\]$/m);
    expect(out).toMatch(/^steps: compared outside SQLite — the simulation's \d+ SQLite VFS steps are system calls native SQLite makes inside the journal's calls/m);
    expect(out).toMatch(/^steps: the real processes took the simulation's 15 worker steps, in its order$/m);
    expect(out).toMatch(/^verdict: confirmed — the same violations in real processes$/m);
    expect(out).toContain('actual no durable record of the key (only in the page cache: a machine crash here would lose journal.db-wal: 24720 unsynced bytes lost — fsync the file)');
    // The native SQLite's page writes and syncs are the simulated SQLite's, step for step outside SQLite.
    expect(out).not.toMatch(/diverged/);
    expect(code).toBe(1);
  });

  test('the power loss after the send: the crash image built from the real calls has lost the WAL\'s frames; confirmed', async () => {
    const scenario = file('wal-normal-crash.json', { ...walNormalFinding, faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 0 }, when: 'after', mode: 'lose-unsynced' }] });
    const { code, out } = await confirm(scenario, 'wal-normal.ts');
    expect(out).toMatch(/^real crash: worker-0#0 after step 10 \(fetch\) \(lose-unsynced: machine crash\); killed worker-0#0$/m);
    expect(out).toMatch(/^real disk after the crash: journal\.db-wal: 24720 unsynced bytes lost$/m);
    expect(out).toMatch(/^verdict: confirmed — the same violations in real processes$/m);
    expect(out).toContain('actual no record of post-a in the durable image after crash 1; the crash lost journal.db-wal: its writes were never fsynced');
    expect(code).toBe(1);
  });

  test('the clean journal (rollback journal, synchronous=EXTRA) run for real against the WAL/NORMAL simulation: never confirmed', async () => {
    const scenario = parseScenario(walNormalFinding);
    const instances = await compileJournal(await bundleJournal(journalRefOf(join(EXAMPLES, 'wal-normal.ts'))), join(ROOT, 'src/index.ts'));
    const result = await simulate(instances.fresh(), scenario, { fresh: instances.fresh, diskCalls: true });
    const violations = judge(result);
    expect(violations.map((v) => v.code)).toEqual(['write-ahead', 'no-state-skip', 'truthful-outcome']);
    const clean = journalRefOf(join(EXAMPLES, 'journal.ts'));
    // Without the simulated disk calls to compare: the real run is clean, the worlds do not meet.
    const judged = await confirmScenario(clean, scenario, simulatedOf({ trace: result.trace, crashes: result.crashes }, violations));
    expect(judged.lines).toContainEqual(expect.stringMatching(/^real \(\d+ ms, 15 worker steps, \d+ system calls on the work folder traced\): no violation$/));
    expect(judged.verdict).toBe('not reproduced');
    expect(judged.lines).toContain('verdict: not reproduced — write-ahead [post-a], no-state-skip [post-a], truthful-outcome [post-a] did not happen for real');
    expect(judged.exitCode).toBe(4);
    // With them: the first SQLite commit (its step, fh.close before it) wrote a rollback journal, not a WAL.
    const compared = await confirmScenario(clean, scenario, simulatedOf(result, violations));
    expect(compared.verdict).toBe('diverged');
    expect(compared.divergence?.mark).toBe('worker-0#0 step 8 fh.close');
    expect(compared.exitCode).toBe(6);
  });

  test('a crash inside a SQLite call (before the WAL\'s first sync) cannot be placed in a real process: cannot confirm, exit 2', async () => {
    const scenario = file('wal-sync-crash.json', { ...walNormalFinding, faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'sqlite.xSync', occurrence: 2 }, when: 'before', mode: 'lose-unsynced' }] });
    const { code, out } = await confirm(scenario, 'wal-normal.ts');
    expect(out).toMatch(/^cannot confirm: the crash fault lands on worker-0#0 step \d+ sqlite\.xSync, a call native SQLite makes inside one JavaScript call, where no real process can be stopped \(docs\/sqlite\.md\)\.$/m);
    expect(code).toBe(2);
  });
});
