/**
 * Bad input is refused at once, exit 2, by the command a user runs: a FIFO, /dev/zero or
 * /dev/urandom named as a scenario, a config, a task, a journal (or a file it imports), a stored
 * regression or a summary to merge (each once never returned: a read that blocks, or never ends);
 * config values past a scenario's limits (once exit 5, in the middle of the run). Each case runs
 * the real command in a child process, so a hang is a killed child (the hang guard), never a test
 * process blocked in a read.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'durasim-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fifo = join(dir, 'pipe.json');
execFileSync('mkfifo', [fifo]);

/** A project folder holding `files` (a `null` content makes a FIFO there). */
function project(name: string, files: Record<string, string | null>): string {
  const folder = join(dir, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    if (content === null) execFileSync('mkfifo', [join(folder, path)]);
    else writeFileSync(join(folder, path), content);
  }
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** The command, run as a user runs it; killed if it does not return (a generous hang guard: the refusals take well under a second). */
function durasim(cwd: string, ...argv: string[]): { status: number | null; stderr: string; stdout: string } {
  const run = spawnSync(process.execPath, [join(ROOT, 'bin/durasim.mjs'), ...argv], { cwd, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL', env: { ...process.env, NO_COLOR: '1' } });
  return { status: run.status, stderr: run.stderr, stdout: run.stdout };
}

const outputs = ['--report-dir', 'report', '--runs', '3', '--seed', '1', '--workers', '1', '--no-progress'];
const journalImporting = "import data from './data.js';\nexport default { name: 'imports-a-pipe', async run() { void data; }, inspect: () => ({}) };\n";

describe('bad input is refused by name, at once, exit 2, nothing written', () => {
  test.each([
    ['a FIFO as the scenario of replay', () => project('replay-fifo', {}), ['replay', fifo], `Failed to read the scenario: ${fifo} is a FIFO (a named pipe), not a file. Pass the path of a scenario file, e.g. a report dir’s counterexample.json.`],
    ['/dev/zero as the scenario of explain', () => project('explain-zero', {}), ['explain', '/dev/zero'], 'Failed to read the scenario: /dev/zero is a character device, not a file.'],
    ['/dev/urandom as the scenario of confirm', () => project('confirm-urandom', {}), ['confirm', '/dev/urandom'], 'Failed to read the scenario: /dev/urandom is a character device, not a file.'],
    ['a FIFO as the base of explore', () => project('explore-fifo', {}), ['explore', fifo], `Failed to read the scenario: ${fifo} is a FIFO (a named pipe), not a file.`],
    ['/dev/urandom as the config', () => project('config-urandom', {}), ['check', '--no-sweep', '--config', '/dev/urandom', ...outputs], 'Failed to read the config: /dev/urandom is a character device, not a file. Pass the path of a durasim.config.json.'],
    ['a FIFO as durasim.config.json', () => project('config-fifo', { 'durasim.config.json': null }), ['check', '--no-sweep', ...outputs], 'Failed to read the config: durasim.config.json is a FIFO (a named pipe), not a file. Fix its permissions, or delete it.'],
    ['a config whose journal is a FIFO', () => project('journal-fifo', { 'durasim.config.json': '{ "journal": "./journal.ts" }', 'journal.ts': null }), ['check', '--no-sweep', ...outputs], 'Failed to load the journal: ./journal.ts is a FIFO (a named pipe), not a file. Pass the path of your adapter module (a .ts, .mts or .js file).'],
    ['a config whose task is /dev/zero', () => project('task-zero', { 'durasim.config.json': '{ "task": "/dev/zero" }' }), ['check', '--no-sweep', ...outputs], 'Failed to read the task: /dev/zero is a character device, not a file. Pass a scenario-format file (docs/scenario-format.md) holding your task.'],
    ['a journal that imports a FIFO', () => project('import-fifo', { 'journal.ts': journalImporting, 'data.js': null }), ['check', '--no-sweep', '--journal', './journal.ts', ...outputs], `Failed to load the journal: bundling ./journal.ts failed: ${join(dir, 'import-fifo', 'data.js')} is a FIFO (a named pipe), not a file, imported as ./data.js (journal.ts:1). Fix the module so it compiles.`],
    ['a FIFO among the stored regressions', () => project('regression-fifo', { 'reports/regressions/reference/0000000000000000.json': null }), ['check', '--no-sweep', ...outputs], 'Failed to load the regression corpus: reports/regressions/reference/0000000000000000.json is a FIFO (a named pipe), not a file. Fix or delete the file, or pass another folder with --regressions.'],
    ['a FIFO as a summary to merge', () => project('merge-fifo', {}), ['merge', fifo], `Failed to merge summaries: ${fifo} is a FIFO (a named pipe), not a file. Pass the summary.json files that durasim check wrote.`],
    ['an "env" value of 1 MB in the config', () => project('env-long', { 'durasim.config.json': JSON.stringify({ env: { A: 'x'.repeat(1 << 20) } }) }), ['check', '--no-sweep', ...outputs], 'Failed to read the config: durasim.config.json says "env" has "A": a value 1048576 characters long, over the limit of 262144.'],
    ['20,000 "env" names in the config', () => project('env-many', { 'durasim.config.json': JSON.stringify({ env: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`V${i}`, '1'])) }) }), ['check', '--no-sweep', ...outputs], 'Failed to read the config: durasim.config.json says "env": 20000 variables, over the limit of 1000.'],
    ['a 50,000-deep "env" in the config', () => project('env-deep', { 'durasim.config.json': `{ "env": ${'{"a":'.repeat(50_000)}"1"${'}'.repeat(50_000)} }` }), ['check', '--no-sweep', ...outputs], 'Failed to read the config: durasim.config.json nests arrays and objects more than 64 deep (at character 325), over the limit of 64.'],
    ['a key given twice in the config', () => project('config-twice', { 'durasim.config.json': '{ "runs": 3, "runs": 3000 }' }), ['check', '--no-sweep', ...outputs], 'Failed to read the config: durasim.config.json has the key "runs" twice, at the top level.'],
  ] as [string, () => string, string[], string][])('%s', (_what, setUp, argv, message) => {
    const cwd = setUp();
    const { status, stderr } = durasim(cwd, ...argv);
    expect(stderr).toContain(message);
    expect(status).toBe(2);
    expect(existsSync(join(cwd, 'report'))).toBe(false);
  });

  test('a config with a byte-order mark is read (a Windows editor writes one)', () => {
    const cwd = project('bom', { 'durasim.config.json': '\ufeff{ "runs": 2, "features": [] }' });
    const { status, stdout } = durasim(cwd, 'check', '--no-sweep', '--no-real-restart', '--report-dir', 'report', '--seed', '1', '--workers', '1', '--no-progress', '--regressions', 'regressions');
    expect(stdout).toMatch(/· 2 runs ·/);
    expect(status).toBe(0);
  });
});
