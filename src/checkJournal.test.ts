import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { checkJournal } from './checkJournal.js';
import { mutantNamed } from './journals/mutants/index.js';
import { referenceJournal } from './journals/reference.js';

describe('checkJournal (the vitest helper)', () => {
  test('passes for a correct journal', async () => {
    await expect(checkJournal(referenceJournal, { runs: 60, seed: 3, regressionsDir: mkdtempSync(join(tmpdir(), 'durasim-reg-')) })).resolves.toBeUndefined();
  });

  test('fails with the readable counterexample, saves it, and replays it first next time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-reg-'));
    const noFsync = mutantNamed('no-fsync')?.journal;
    if (!noFsync) throw new Error('the no-fsync mutant is missing');
    const first = checkJournal(noFsync, { runs: 60, seed: 3, regressionsDir: dir });
    await expect(first).rejects.toThrow(/durasim found a failure in journal "no-fsync" \(seed 3, after \d+ runs?, shrunk \d+ times?\)\n {2}write-ahead \[post-a\]/);
    await expect(first).rejects.toThrow(/replay: npx durasim replay .+\.json --journal no-fsync/);
    expect(readdirSync(join(dir, 'no-fsync'))).toHaveLength(1);
    await expect(checkJournal(noFsync, { runs: 1, seed: 99, regressionsDir: dir })).rejects.toThrow(/\(stored regression .+\.json\)/);
  });

  test('skips a stored regression of a fault family it does not draw, as check does, and replays it when it does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-reg-'));
    mkdirSync(join(dir, 'torn-tail-fatal'));
    // torn-tail-fatal's committed regression: a torn-tail machine crash (the disk family).
    copyFileSync(new URL('../reports/regressions/torn-tail-fatal/5c7d6fe8baad79b2.json', import.meta.url), join(dir, 'torn-tail-fatal', '5c7d6fe8baad79b2.json'));
    const tornTailFatal = mutantNamed('torn-tail-fatal')?.journal;
    if (!tornTailFatal) throw new Error('the torn-tail-fatal mutant is missing');
    await expect(checkJournal(tornTailFatal, { runs: 1, seed: 1, faults: ['response'], regressionsDir: dir, realRestart: false })).resolves.toBeUndefined();
    await expect(checkJournal(tornTailFatal, { runs: 1, seed: 1, faults: ['disk'], regressionsDir: dir })).rejects.toThrow(/\(stored regression .+5c7d6fe8baad79b2\.json\)/);
  });

  test('refuses a journal object it cannot run in a worker, and a seed it would have to wrap', async () => {
    const mine = { name: 'mine', run: async () => {}, inspect: () => ({}) };
    await expect(checkJournal(mine)).rejects.toThrow('Failed to check the journal: checkJournal was given the object of journal "mine", but it runs journals in worker threads with fresh modules per incarnation, so it needs the module. Pass the module instead: checkJournal(new URL(\'./my-journal.ts\', import.meta.url)).');
    await expect(checkJournal(referenceJournal, { seed: 2 ** 32 })).rejects.toThrow('Failed to check the journal: the seed must be a whole number from 0 to 4294967295, found 4294967296.');
  });
});

describe('checkJournal reads durasim.config.json as check does', () => {
  const home = process.cwd();
  afterEach(() => process.chdir(home));

  /** A project folder: a journal that reads JOURNAL_TOKEN as it loads (it cannot load without it), and the given config files. */
  function project(configs: Record<string, unknown>): string {
    const dir = mkdtempSync(join(tmpdir(), 'durasim-project-'));
    writeFileSync(join(dir, 'journal.mjs'), [
      "if (process.env.JOURNAL_TOKEN === undefined) throw new Error('JOURNAL_TOKEN is not set');",
      "export default { name: 'needs-env', async run() {}, inspect() { return {}; } };",
    ].join('\n'));
    for (const [name, config] of Object.entries(configs)) writeFileSync(join(dir, name), typeof config === 'string' ? config : JSON.stringify(config));
    return dir;
  }
  /** One worker, and a regression folder of its own (a finding saved by one call would be replayed first by the next). */
  const quiet = (dir: string, name: string) => ({ workers: 1, regressionsDir: join(dir, name) });

  test("the working folder's config: its env while the modules load, its seed; its task file, whose environment serves when no env is named", async () => {
    const dir = project({ 'durasim.config.json': { env: { JOURNAL_TOKEN: 't' }, seed: 11, runs: 3, faults: ['crash'] } });
    process.chdir(dir);
    // Without the config the module throws as it loads. With it, the runs are the config's (seed 11): a journal that records nothing fails convergence.
    await expect(checkJournal('./journal.mjs', quiet(dir, 'a'))).rejects.toThrow(/durasim found a failure in journal "needs-env" \(seed 11, after \d+ runs?, /);
    const saved = (name: string): { environment: Record<string, string> } => {
      const folder = join(dir, name, 'needs-env');
      return JSON.parse(readFileSync(join(folder, readdirSync(folder)[0] as string), 'utf8')) as { environment: Record<string, string> };
    };
    expect(saved('a').environment).toEqual({ JOURNAL_TOKEN: 't' });
    const task = { format: 'durasim.scenario', version: 2, task: { id: 't', operations: [{ kind: 'publish', key: 'post-a', body: 'a' }] }, environment: { JOURNAL_TOKEN: 'from-task' } };
    writeFileSync(join(dir, 'task.json'), JSON.stringify(task));
    writeFileSync(join(dir, 'durasim.config.json'), JSON.stringify({ seed: 12, task: './task.json', faults: ['crash'] }));
    await expect(checkJournal('./journal.mjs', quiet(dir, 'b'))).rejects.toThrow(/\(seed 12, after \d+ runs?, /);
    expect(saved('b').environment).toEqual({ JOURNAL_TOKEN: 'from-task' });
  });

  test('options override the config, as flags do; config: names another file', async () => {
    const dir = project({ 'durasim.config.json': { env: { JOURNAL_TOKEN: 't' }, seed: 11 }, 'other.json': { env: { JOURNAL_TOKEN: 'u' }, seed: 12 } });
    process.chdir(dir);
    await expect(checkJournal('./journal.mjs', { ...quiet(dir, 'a'), seed: 13 })).rejects.toThrow(/\(seed 13, /);
    await expect(checkJournal('./journal.mjs', { ...quiet(dir, 'b'), config: 'other.json' })).rejects.toThrow(/\(seed 12, /);
    // An env in the options adds to the config's (a name in both: the options' value).
    await expect(checkJournal('./journal.mjs', { ...quiet(dir, 'c'), config: 'other.json', env: { OTHER: '1' } })).rejects.toThrow(/\(seed 12, /);
    await expect(checkJournal('./journal.mjs', { ...quiet(dir, 'd'), config: 'missing.json' })).rejects.toThrow('Failed to read the config: missing.json could not be read (ENOENT). Pass the path of a durasim.config.json.');
  });

  test('a config durasim refuses is refused in the same words; without any config, env: in the options serves the module', async () => {
    const dir = project({ 'durasim.config.json': { rusn: 5 } });
    process.chdir(dir);
    await expect(checkJournal('./journal.mjs', quiet(dir, 'a'))).rejects.toThrow('Failed to read the config: durasim.config.json has a key "rusn" that durasim does not know. Did you mean "runs"? Use any of journal, runs, seed, faults, calls, operations, features, task, env, bounds, service, input.');
    const bare = project({});
    process.chdir(bare);
    await expect(checkJournal('./journal.mjs', { ...quiet(bare, 'a'), seed: 4, runs: 2 })).rejects.toThrow('JOURNAL_TOKEN is not set');
    await expect(checkJournal('./journal.mjs', { ...quiet(bare, 'b'), seed: 4, runs: 2, env: { JOURNAL_TOKEN: 't' } })).rejects.toThrow(/\(seed 4, after \d+ runs?, /);
  });
});
