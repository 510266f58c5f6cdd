/**
 * durasim confirm from the workers' real system calls (strace): a durability finding — an intent
 * never fsynced, a rename whose folder was never fsynced — is confirmed, with the machine crash's
 * disk built from what the real calls made durable; a correct twin is clean on the same scenario;
 * and a simulation whose disk calls differ from the real ones is reported as diverged (exit 6),
 * the step and both sides named.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../cli/main.js';
import { judge } from '../../model/judge.js';
import { parseScenario } from '../../simulator/scenario/scenario.js';
import { simulate } from '../../simulator/simulate.js';
import { referenceJournal } from '../journals/reference.js';
import { journalRefOf } from '../isolation/journalRef.js';
import { confirmScenario } from './confirmScenario.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-confirm-test-'));
const oneWrite = { format: 'durasim.scenario', version: 1, task: { id: 'task-1', operations: [{ kind: 'publish', key: 'post-a', body: 'artifact a v1' }] } };
const file = (name: string, value: unknown): string => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

async function confirm(scenario: string, journal: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(['confirm', scenario, '--journal', journal, ...args], (line) => out.push(line));
  return { code, out: out.join('\n') };
}

describe('durasim confirm, traced', () => {
  test('the Node example without its fsync: confirmed, its intent still in the page cache when the request left; the example itself is clean', async () => {
    const scenario = file('one-write.json', oneWrite);
    const unsynced = await confirm(scenario, join(ROOT, 'examples/node-journal/journal-unsynced.ts'), '--calls');
    expect(unsynced.out).toMatch(/^real \(\d+ ms, \d+ worker steps, \d+ system calls on the work folder traced\): write-ahead \[post-a\], truthful-outcome \[post-a\]$/m);
    expect(unsynced.out).toMatch(/^verdict: confirmed — the same violations in real processes$/m);
    expect(unsynced.out).toContain('a machine crash here would lose journal.jsonl: 251 unsynced bytes lost — fsync the file');
    // The real-call log beside the simulated calls: the append, as write(2), with no fsync after it.
    expect(unsynced.out).toMatch(/worker-0#0 step 15 fh\.appendFile\n +simulated: write journal\.jsonl 137 bytes at 0 .*\n +write\(journal\.jsonl, .*, 137\) = 137/);
    expect(unsynced.code).toBe(1);
    const synced = await confirm(scenario, join(ROOT, 'examples/node-journal/journal.ts'));
    expect(synced.out).toMatch(/^verdict: both clean$/m);
    expect(synced.code).toBe(0);
  });

  test('a rename without a folder fsync, then a machine crash: the crash image built from the real calls loses the renamed file; confirmed', async () => {
    const journal = file('renames.ts', `export { renamesWithoutFolderFsyncJournal as default } from ${JSON.stringify(join(ROOT, 'properties/fixtures/stateFileJournal.ts'))};\n`);
    const scenario = file('crash-after-rename.json', { ...oneWrite, faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'post-a', occurrence: 1 }, when: 'after', mode: 'lose-unsynced' }] });
    const { code, out } = await confirm(scenario, journal);
    expect(out).toMatch(/^real crash: worker-0#0 after step \d+ \(fh\.writeFile\) \(lose-unsynced: machine crash\); killed worker-0#0$/m);
    expect(out).toMatch(/^real disk after the crash: state\.json: entry never fsynced, vanished/m);
    expect(out).toMatch(/^verdict: confirmed — the same violations in real processes$/m);
    expect(out).toContain('state.json: fsynced, but its entry vanished — fsync the folder after creating or renaming into it');
    expect(code).toBe(1);
    const twin = file('state-file.ts', `export { stateFileJournal as default } from ${JSON.stringify(join(ROOT, 'properties/fixtures/stateFileJournal.ts'))};\n`);
    const clean = await confirm(scenario, twin);
    expect(clean.out).toMatch(/^real disk after the crash: /m);
    expect(clean.out).toMatch(/^verdict: both clean$/m);
    expect(clean.code).toBe(0);
  });

  test('a journal on the rest of Node\'s file API (mkdtemp, file streams, chmod, opendir) runs in real processes step for step as simulated, its disk calls alike', async () => {
    const journal = file('node-file-api.ts', `export { nodeFileApiJournal as default } from ${JSON.stringify(join(ROOT, 'properties/fixtures/nodeFileApiJournal.ts'))};\n`);
    const scenario = file('lookup.json', { format: 'durasim.scenario', version: 1, task: { id: 't', operations: [{ kind: 'lookup', key: 'k', resource: 'config' }] }, service: { resources: { config: 'v1' } }, random: [0.5, 0.25] });
    const { code, out } = await confirm(scenario, journal, '--calls');
    expect(out).toMatch(/^steps: the real processes took the simulation's 15 worker steps, in its order$/m);
    expect(out).toMatch(/^verdict: both clean$/m);
    // The stream's two chunks, as one writev(2), in both worlds; the mkdtemp folder named alike.
    expect(out).toMatch(/worker-0#0 step 2 fs\.writev\n +simulated: write t-fAAAAA\/log 4 bytes at 0 "a\\nb\\n"\n +writev\(t-fAAAAA\/log, /);
    expect(code).toBe(0);
  });

  test("a crash anchored on a path lands where simulated in a journal on Node's API: a link onto the path names it in real processes too (it was named by its source alone, and the kill landed two steps later, diverged)", async () => {
    // The edit's steps naming notes.md: its read, its "read" record, the move aside, then the link onto it: the fourth is the link.
    const scenario = file('edit-anchored.json', { format: 'durasim.scenario', version: 3, task: { id: 't', operations: [{ kind: 'edit', key: 'edit-notes', path: 'notes.md', append: '- agent: done\n' }] }, files: { 'notes.md': '# Notes\n' }, faults: [{ kind: 'crash', process: 0, incarnation: 0, at: { mentions: 'notes.md', occurrence: 3 }, when: 'before', mode: 'keep-all' }] });
    const { code, out } = await confirm(scenario, join(ROOT, 'examples/node-journal/journal.ts'));
    expect(out).toMatch(/^real crash: worker-0#0 before step \d+ \(fs\.promises\.link\): SIGKILL$/m);
    expect(out).toMatch(/^steps: the real processes took the simulation's \d+ worker steps, in its order$/m);
    expect(out).toMatch(/^verdict: both clean$/m);
    expect(code).toBe(0);
  });

  test('a simulation whose disk calls differ from the real ones for a step is diverged (exit 6): the step and both sides named, never "not reproduced"', async () => {
    const scenario = parseScenario(oneWrite);
    const result = await simulate(referenceJournal, scenario, { diskCalls: true });
    expect(judge(result)).toEqual([]);
    const honest = await confirmScenario(journalRefOf('reference'), scenario, { violations: [], trace: result.trace, crashes: result.crashes, diskCalls: result.diskCalls ?? [] });
    expect(honest.verdict).toBe('both clean');
    // A model of Node that forgot one fsync: the first fsync of the simulated log is dropped.
    const calls = result.diskCalls ?? [];
    const dropped = calls.findIndex((c) => c.text.startsWith('fsync '));
    expect(dropped).toBeGreaterThanOrEqual(0);
    const wrong = calls.filter((_, i) => i !== dropped);
    const mark = calls[dropped]?.mark as string;
    const confirmation = await confirmScenario(journalRefOf('reference'), scenario, { violations: [], trace: result.trace, crashes: result.crashes, diskCalls: wrong });
    expect(confirmation.verdict).toBe('diverged');
    expect(confirmation.exitCode).toBe(6);
    expect(confirmation.divergence?.mark).toBe(mark);
    expect(confirmation.lines).toContain(`  at ${mark}:`);
    expect(confirmation.lines.join('\n')).toContain(`real:      ${calls.filter((c) => c.mark === mark).map((c) => c.text).join('; ')}`);
    expect(confirmation.lines.join('\n')).toMatch(/a defect of durasim, not a finding about the journal/);
  });
});
